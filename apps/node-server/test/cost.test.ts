import { runCostContract } from '@infergate/testkit';
import { startLoggedGateway } from './start-logged-gateway.js';

runCostContract({ name: 'node-server', start: startLoggedGateway });
