#!/usr/bin/env bash
# The whole test suite, as `pnpm test` and CI run it: the formatting check, the system packages the
# tests need, every package's tests on Node 24 one package at a time, the apps' contract suites on
# Node 22 and 20, the bench's regression guard, and on failure a summary of what failed at the very
# end, where a truncated CI log still shows it.
set -uo pipefail
cd "$(dirname "$0")/.."

# The releases the suites run on, one per supported line; the first runs everything.
node_versions=(24.21.0 22.23.3 20.20.2)

# Formatting first: it takes seconds, and an unformatted file fails the run anyway.
pnpm format:check || exit $?
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

echo "== Every package's tests on Node $("${node_bins[0]}/node" --version)"
on_node "${node_bins[0]}" pnpm exec turbo run test --concurrency=1 --continue
status=$?
for bin in "${node_bins[@]:1}"; do
  echo "== The apps' contract suites on Node $("$bin/node" --version)"
  on_node "$bin" pnpm exec turbo run test:contract --concurrency=1 --continue || status=1
done

# The hot path's regression guard: the bench's quick mode, failing when a scenario's infergate / floor
# req/s falls below 0.5 (a wide margin: the machine is shared and noisy). Both run on the first Node.
(cd packages/testkit && on_node "${node_bins[0]}" node bench/run-bench.mjs --quick --only=1,2,3,4,10 --guard=0.5)
guard_status=$?
if [ "$status" -ne 0 ]; then
  node scripts/summarize-test-failures.mjs "$started_at"
  exit "$status"
fi
exit "$guard_status"
