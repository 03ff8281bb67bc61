import { runMessagesContract } from '@infergate/testkit/clients';
import { startLoggedEdge } from './start-logged-edge.js';

runMessagesContract({ name: 'edge app on Node', start: startLoggedEdge });
