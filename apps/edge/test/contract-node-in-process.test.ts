import { runGatewayContract } from '@infergate/testkit';
import { edgeTestBindings } from './edge-test-env.js';
import { startEdgeOnNode } from './start-edge-on-node.js';

runGatewayContract({
  name: 'edge app on Node (@hono/node-server), zero-config local backend in-process',
  start: (upstreamUrl) => startEdgeOnNode(edgeTestBindings({ upstreamUrl })),
});
