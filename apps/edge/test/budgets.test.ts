import { runBudgetContract } from '@infergate/testkit';
import { startLoggedEdge } from './start-logged-edge.js';

runBudgetContract({ name: 'edge app on Node', start: startLoggedEdge });
