import { runAgentClientCompatibility } from '@infergate/testkit/clients';
import { startNodeGateway } from './start-node-gateway.js';

runAgentClientCompatibility({
  name: 'node-server, zero-config local backend',
  start: () => startNodeGateway(),
});
