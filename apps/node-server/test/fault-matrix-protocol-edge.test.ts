import { describeProtocolEdgeRows } from '@infergate/testkit';
import { nodeFaultMatrixTarget } from './node-fault-matrix-target.js';

describeProtocolEdgeRows(nodeFaultMatrixTarget);
