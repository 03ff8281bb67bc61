import {
  describeBodyAdmissionRows,
  describeInputRows,
  describeNetworkRows,
  describeSafetyRows,
  describeUpstreamRows,
  type FaultMatrixTarget,
} from '@infergate/testkit';
import { testApiKey } from './edge-test-env.js';
import { startEdgeOnNode } from './start-edge-on-node.js';

// The fault matrix's rows 1-17 and 22-26, and issue 40's rows 27-30, against the edge app on Node (@hono/node-server), with the same
// functions the node-server runs. The edge app writes no logs of its own: row 7 checks its responses.
const edgeOnNode: FaultMatrixTarget = {
  name: 'edge on Node',
  knownFailures: {
    // The fetch transport cannot tell connecting from waiting for headers, so timeouts.connect_ms is
    // not applied: a blackholed upstream waits for the runtime's own connect limit (undici: 10 s)
    // and is not retried on the second endpoint within the configured limit.
    11: "fetch transport: the connect limit is the runtime's (10 s on Node), not timeouts.connect_ms",
  },
  // A short shutdown grace, as the node-server's tests use: closing never waits on DESIGN.md's 30 s.
  start: (file) =>
    startEdgeOnNode({
      INFERGATE_API_KEYS: testApiKey,
      INFERGATE_CONFIG_JSON: JSON.stringify({ ...file, timeouts: { shutdown_grace_ms: 1_000, ...(file.timeouts as object | undefined) } }),
    }),
};

describeInputRows(edgeOnNode);
describeUpstreamRows(edgeOnNode);
describeSafetyRows(edgeOnNode);
describeBodyAdmissionRows(edgeOnNode);
// Rows 11 and 13 again with nftables in a network namespace (root, as CI runs).
describeNetworkRows(edgeOnNode);
