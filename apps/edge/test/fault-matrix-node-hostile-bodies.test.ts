import { describeHostileBodyRow } from '@infergate/testkit';
import { edgeOnNode } from './edge-fault-matrix-target.js';

// Row 1 (fuzzing every POST route) against the edge app on Node; it times nothing, so it runs beside
// other files rather than in fault-matrix-node.test.ts's serial run.
describeHostileBodyRow(edgeOnNode);
