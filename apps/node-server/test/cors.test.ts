import { describeCorsContract } from '@infergate/testkit';
import { startNodeGateway } from './start-node-gateway.js';

describeCorsContract('node-server', (file) => startNodeGateway(file));
