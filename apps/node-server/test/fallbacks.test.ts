import { runFallbackContract } from '@infergate/testkit';
import { startLoggedGateway } from './start-logged-gateway.js';

runFallbackContract({ name: 'node-server', start: startLoggedGateway });
