import { describeHostileBodyRow } from '@infergate/testkit';
import { nodeFaultMatrixTarget } from './node-fault-matrix-target.js';

describeHostileBodyRow(nodeFaultMatrixTarget);
