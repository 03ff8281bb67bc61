import { describeSafetyRows } from '@infergate/testkit';
import { nodeFaultMatrixTarget } from './node-fault-matrix-target.js';

describeSafetyRows(nodeFaultMatrixTarget);
