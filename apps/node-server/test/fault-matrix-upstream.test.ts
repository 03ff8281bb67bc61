import { describeUpstreamRows } from '@infergate/testkit';
import { nodeFaultMatrixTarget } from './node-fault-matrix-target.js';

describeUpstreamRows(nodeFaultMatrixTarget);
