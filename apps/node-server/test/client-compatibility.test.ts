import { runClientCompatibility } from '@infergate/testkit/clients';
import { startNodeGateway } from './start-node-gateway.js';

runClientCompatibility({ name: 'node-server, zero-config', start: () => startNodeGateway() });
