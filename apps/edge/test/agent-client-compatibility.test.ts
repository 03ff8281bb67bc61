import { runAgentClientCompatibility } from '@infergate/testkit/clients';
import { edgeTestBindings } from './edge-test-env.js';
import { startEdgeOnNode } from './start-edge-on-node.js';

runAgentClientCompatibility({
  name: 'edge app on Node, zero-config local backend in-process',
  start: () => startEdgeOnNode(edgeTestBindings({})),
});
