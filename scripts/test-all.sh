#!/usr/bin/env bash
# The whole test suite, as `pnpm test` and CI run it: the formatting check, the system packages the
# tests need, every package's tests on Node 24 (the libraries, then the apps), the apps' contract
# suites on Node 22 and 20, the bench's regression guard, and on failure a summary of what failed at
# the very end, where a truncated CI log still shows it.
#
# Quiet when everything passes: per run, one line of packages and test counts with the wall time
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

# `run_suites <heading> <node bin> <turbo task> <packages at once> <folder>`: the task in every
# package under <folder>, quietly.
run_suites() {
  local heading=$1 bin=$2 task=$3 concurrency=$4 folder=$5 version log since status
  version=$("$bin/node" --version)
  log=".turbo/test-all-${task/:/-}-${folder}-node${version%%.*}.log"
  mkdir -p .turbo
  echo "== $heading on Node $version"
  since=$(($(date +%s) * 1000))
  on_node "$bin" pnpm exec turbo run "$task" --filter="./$folder/*" --concurrency="$concurrency" \
    --continue --output-logs=errors-only --summarize >"$log" 2>&1
  status=$?
  if [ "$status" -ne 0 ]; then
    echo "turbo's output ($log):"
    cat "$log"
  fi
  node scripts/summarize-test-run.mjs "$since" || echo "  turbo exited with $status and wrote no run summary; its output: $log"
  return "$status"
}

# The libraries two at a time: their tests wait on sockets and child processes as much as they
# compute. The apps one at a time, so that their timed files run alone (see their vitest.config.ts).
# The contract suites assert no durations (their waits only bound a hang): both apps run at once.
run_suites "The libraries' tests" "${node_bins[0]}" test 2 packages
status=$?
run_suites "The apps' tests" "${node_bins[0]}" test 1 apps || status=1
for bin in "${node_bins[@]:1}"; do
  run_suites "The apps' contract suites" "$bin" test:contract 2 apps || status=1
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
  node scripts/summarize-test-failures.mjs "$started_at"
  echo "pnpm test: FAILED ($took)"
  exit "$status"
fi
if [ "$guard_status" -ne 0 ]; then
  echo "pnpm test: the tests passed, the bench's regression guard FAILED ($took)"
  exit "$guard_status"
fi
echo "pnpm test: passed ($took)"
