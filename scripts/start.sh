#!/usr/bin/env bash
# `pnpm start`: builds what the node-server needs, then becomes the gateway (exec), so that Ctrl-C and
# SIGTERM reach it directly and its exit code is the command's. turbo caches the build: only the first
# start, and the first after a change, builds anything, and shows what it builds.
set -euo pipefail
repository="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repository"
if [ ! -f apps/node-server/dist/main.js ]; then
  echo "Building the gateway for its first start (a few minutes; later starts reuse the build)..." >&2
fi
pnpm exec turbo run build --filter=@infergate/node-server... --output-logs=new-only >&2
# pnpm runs scripts in the repository; the gateway runs in the folder the command was typed in
# (INIT_CWD), so that a relative INFERGATE_CONFIG is read from there.
cd "${INIT_CWD:-$repository}"
exec node "$repository/apps/node-server/dist/main.js" "$@"
