#!/usr/bin/env bash
# The whole test suite, as `pnpm test` and CI run it: the formatting check, the system packages the
# tests need, every package's tests on Node 24, the apps' contract suites on Node 22 and 20, the
# bench's regression guard, and on failure a summary of what failed at the very end, where a truncated
# CI log still shows it.
#
# Each suite runs in two groups (vitest.shared.ts): first the parallel group of every package, several
# packages and files at once, then the serial group, one package and one file at a time, for the files
# that time things or load the machine and so must have it to themselves.
#
# Quiet when everything passes: per Node line, one line of packages and test counts with the wall time
# and one of each package's time (scripts/summarize-test-run.mjs), and the guard's one-line verdict.
# turbo's own output goes to .turbo/test-all-*.log; with --output-logs=errors-only it holds the full
# log of each failing package only, and it is printed when a run fails.
set -uo pipefail
cd "$(dirname "$0")/.."

# The releases the suites run on, one per supported line; the first runs everything.
node_versions=(24.21.0 22.23.3 20.20.2)

# Formatting first: it takes seconds, and an unformatted file fails the run anyway.
if ! format_output=$(pnpm -s format:check 2>&1); then
  printf '%s\n' "$format_output"
  exit 1
fi
bash scripts/install-test-packages.sh || exit $?

# npm on a Node fetched into the cache does not read the machine's global npmrc (it lives beside the
# machine's own node): hand a configured CA file to every Node through the environment instead.
cafile=$(npm config get cafile 2>/dev/null || true)
if [ -z "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$cafile" ]; then export NODE_EXTRA_CA_CERTS="$cafile"; fi

node_bins=()
for version in "${node_versions[@]}"; do
  bin=$(bash scripts/install-test-node.sh "$version") || exit $?
  node_bins+=("$bin")
done

started_at=$(date +%s)
on_node() {
  local bin=$1
  shift
  PATH="$bin:$PATH" INFERGATE_TEST_NODE="$("$bin/node" --version)" "$@"
}

# Packages with a serial group, for turbo's --filter: the others have nothing to run in it.
serial_filters=()
for config in apps/*/vitest.config.ts packages/*/vitest.config.ts; do
  if grep -q withSerialGroup "$config"; then serial_filters+=("--filter=./${config%/vitest.config.ts}"); fi
done

mkdir -p .turbo
failures=.turbo/test-all-failures.txt
: >"$failures"

# `run_group <group> <node bin> <turbo task> <log> <records> <turbo option>...`: one group of the task
# in every package the options select, quietly; its tasks' times and counts go to <records>. On a
# failure turbo's output is printed, and what failed is kept for the end (the next group rewrites the
# packages' logs it is read from).
run_group() {
  local group=$1 bin=$2 task=$3 log=$4 records=$5 since status
  shift 5
  since=$(date +%s)
  INFERGATE_TEST_GROUP=$group on_node "$bin" pnpm exec turbo run "$task" "$@" --continue --output-logs=errors-only --summarize >"$log" 2>&1
  status=$?
  node scripts/summarize-test-run.mjs record "$log" >>"$records" || echo "  turbo exited with $status and wrote no run summary; its output: $log"
  if [ "$status" -ne 0 ]; then
    echo "turbo's output ($log):"
    cat "$log"
    node scripts/summarize-test-failures.mjs "$since" >>"$failures"
  fi
  return "$status"
}

# `run_suites <heading> <node bin> <turbo task>`: the task's parallel group in every package, three
# packages at a time, then its serial group, one package at a time; then one summary of both.
run_suites() {
  local heading=$1 bin=$2 task=$3 version name records status=0
  version=$("$bin/node" --version)
  name=".turbo/test-all-${task/:/-}-node${version%%.*}"
  records="$name.jsonl"
  : >"$records"
  echo "== $heading on Node $version"
  run_group parallel "$bin" "$task" "$name-parallel.log" "$records" --concurrency=3 || status=1
  run_group serial "$bin" "$task" "$name-serial.log" "$records" --concurrency=1 "${serial_filters[@]}" || status=1
  node scripts/summarize-test-run.mjs print "$records" || true
  return "$status"
}

run_suites "Every package's tests" "${node_bins[0]}" test
status=$?
for bin in "${node_bins[@]:1}"; do
  run_suites "The apps' contract suites" "$bin" test:contract || status=1
done

# The hot path's regression guard: the bench's quick mode, failing when a scenario's infergate / floor
# req/s falls below 0.5 (a wide margin: the machine is shared and noisy). Both run on the first Node.
# With --guard the bench prints its verdict only (its tables go to a log file it names on a failure).
echo "== The bench's regression guard on Node $("${node_bins[0]}/node" --version) (quick mode, about a minute)"
(cd packages/testkit && on_node "${node_bins[0]}" node bench/run-bench.mjs --quick --only=1,2,3,4,10 --guard=0.5)
guard_status=$?
elapsed=$(($(date +%s) - started_at))
took="$((elapsed / 60))m$(printf '%02d' $((elapsed % 60)))s"
if [ "$status" -ne 0 ]; then
  cat "$failures"
  echo "pnpm test: FAILED ($took)"
  exit "$status"
fi
if [ "$guard_status" -ne 0 ]; then
  echo "pnpm test: the tests passed, the bench's regression guard FAILED ($took)"
  exit "$guard_status"
fi
echo "pnpm test: passed ($took)"
