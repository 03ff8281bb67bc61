import { describeUpstreamRows } from '@infergate/testkit';
import { edgeOnNode } from './edge-fault-matrix-target.js';

// The fault matrix's upstream rows (10-17, 23, 26: statuses, stalls, resets, split events, aborts)
// against the edge app on Node.
describeUpstreamRows(edgeOnNode);
