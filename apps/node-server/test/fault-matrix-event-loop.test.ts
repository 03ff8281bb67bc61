import { describeEventLoopRows } from '@infergate/testkit';
import { nodeFaultMatrixTarget } from './node-fault-matrix-target.js';

// No request holds the event loop: heavy requests while /healthz is probed.
describeEventLoopRows(nodeFaultMatrixTarget);
