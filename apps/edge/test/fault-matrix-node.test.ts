import {
  describeBodyAdmissionRows,
  describeEventLoopRows,
  describeInputRows,
  describeNetworkRows,
  describeSafetyRows,
} from '@infergate/testkit';
import { edgeOnNode } from './edge-fault-matrix-target.js';

// The fault matrix's input, safety and network rows against the edge app on Node, with the same
// functions the node-server runs (the upstream rows are in fault-matrix-node-upstream.test.ts, the
// fuzzing in fault-matrix-node-hostile-bodies.test.ts). The edge app writes no logs of its own: row 7
// checks its responses.
describeInputRows(edgeOnNode);
describeSafetyRows(edgeOnNode);
// No request holds the event loop: heavy requests while /healthz is probed.
describeEventLoopRows(edgeOnNode);
describeBodyAdmissionRows(edgeOnNode);
// Rows 11 and 13 again with nftables in a network namespace (root, as CI runs).
describeNetworkRows(edgeOnNode);
