import { runMessagesContract } from '@infergate/testkit/clients';
import { startLoggedGateway } from './start-logged-gateway.js';

runMessagesContract({ name: 'node-server', start: startLoggedGateway });
