import { runAgentClientCompatibility } from '@infergate/testkit';
import { startNodeGateway } from './start-node-gateway.js';

runAgentClientCompatibility({ name: 'node-server, zero-config local backend', start: () => startNodeGateway() });
