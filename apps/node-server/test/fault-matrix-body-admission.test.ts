import { describeBodyAdmissionRows } from '@infergate/testkit';
import { nodeFaultMatrixTarget } from './node-fault-matrix-target.js';

describeBodyAdmissionRows(nodeFaultMatrixTarget);
