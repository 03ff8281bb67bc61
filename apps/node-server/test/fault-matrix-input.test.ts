import { describeInputRows } from '@infergate/testkit';
import { nodeFaultMatrixTarget } from './node-fault-matrix-target.js';

describeInputRows(nodeFaultMatrixTarget);
