import { describeNetworkRows } from '@infergate/testkit';
import { nodeFaultMatrixTarget } from './node-fault-matrix-target.js';

describeNetworkRows(nodeFaultMatrixTarget);
