import { runBudgetContract } from '@infergate/testkit';
import { startLoggedGateway } from './start-logged-gateway.js';

runBudgetContract({ name: 'node-server', start: startLoggedGateway });
