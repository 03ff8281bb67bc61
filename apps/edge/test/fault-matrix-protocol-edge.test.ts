import { describeProtocolEdgeRows } from '@infergate/testkit';
import { edgeOnNode } from './edge-fault-matrix-target.js';

// The smaller hardening findings (repeated credentials, encodings, methods, targets, upstream messages,
// unreadable images) against the edge app on Node, with the rows the node-server runs.
describeProtocolEdgeRows(edgeOnNode);
