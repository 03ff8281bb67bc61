import { describeInputRows, describeSafetyRows, describeUpstreamRows, type FaultMatrixTarget } from '@infergate/testkit';
import { testApiKey } from './edge-test-env.js';
import { startEdgeOnNode } from './start-edge-on-node.js';

// fault-matrix.md rows 1-17 and 22-26 against the edge app on Node (@hono/node-server), with the same
// functions the node-server runs. The edge app writes no logs of its own: row 7 checks its responses.
const edgeOnNode: FaultMatrixTarget = {
  name: 'edge on Node',
  // A short shutdown grace, as the node-server's tests use: closing never waits on DESIGN.md's 30 s.
  start: (file) => startEdgeOnNode({ INFERGATE_API_KEYS: testApiKey, INFERGATE_CONFIG_JSON: JSON.stringify({ ...file, timeouts: { shutdown_grace_ms: 1_000, ...(file.timeouts as object | undefined) } }) }),
};

describeInputRows(edgeOnNode);
describeUpstreamRows(edgeOnNode);
describeSafetyRows(edgeOnNode);
