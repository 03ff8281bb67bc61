#!/usr/bin/env bash
# `pnpm -s start`: builds what the node-server needs, then becomes the gateway (exec), so that Ctrl-C
# and SIGTERM reach it directly and its exit code is the command's (`-s` keeps pnpm's own header and
# ELIFECYCLE lines out). turbo caches the build: only the first start, and the first after a change,
# builds anything, and shows what it builds; a start with nothing to build prints none of turbo's
# lines, only the gateway's (turbo's own output on a failure).
set -euo pipefail
repository="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repository"
if [ ! -f apps/node-server/dist/main.js ]; then
  echo "Building the gateway for its first start (a few minutes; later starts reuse the build)..." >&2
fi

# Passes turbo's output through from its first task that builds (a cache miss or a forced run), with
# the lines held back before it (turbo colours the task prefix, so the match skips it); when every
# task is a cache hit, it keeps them in $1 instead.
show_from_first_build() {
  local held=() line building=false
  while IFS= read -r line || [ -n "$line" ]; do
    if [ "$building" = false ]; then
      held+=("$line")
      case "$line" in
        *'cache miss, executing '* | *'cache bypass, force executing '*) ;;
        *) continue ;;
      esac
      building=true
      printf '%s\n' "${held[@]}"
      continue
    fi
    printf '%s\n' "$line"
  done
  if [ "$building" = false ] && [ "${#held[@]}" -gt 0 ]; then printf '%s\n' "${held[@]}" >"$1"; fi
}

turbo_options=(--filter=@infergate/node-server... --output-logs=new-only)
# Through the pipe turbo sees no terminal: keep its colours when the reader has one.
if [ -t 2 ] && [ -z "${NO_COLOR:-}" ]; then turbo_options+=(--color); fi
held_output=$(mktemp)
set +e
pnpm exec turbo run build "${turbo_options[@]}" 2>&1 | show_from_first_build "$held_output" >&2
build_status=${PIPESTATUS[0]}
set -e
if [ "$build_status" -ne 0 ]; then cat "$held_output" >&2; fi
rm -f "$held_output"
if [ "$build_status" -ne 0 ]; then exit "$build_status"; fi
# pnpm runs scripts in the repository; the gateway runs in the folder the command was typed in
# (INIT_CWD), so that a relative INFERGATE_CONFIG is read from there.
cd "${INIT_CWD:-$repository}"
exec node "$repository/apps/node-server/dist/main.js" "$@"
