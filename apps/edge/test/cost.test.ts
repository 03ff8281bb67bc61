import { runCostContract } from '@infergate/testkit';
import { startLoggedEdge } from './start-logged-edge.js';

runCostContract({ name: 'edge app on Node', start: startLoggedEdge });
