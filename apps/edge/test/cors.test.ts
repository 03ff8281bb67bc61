import { describeCorsContract } from '@infergate/testkit';
import { testApiKey } from './edge-test-env.js';
import { startEdgeOnNode } from './start-edge-on-node.js';

// The edge app on Node with the local backend in-process, configured as an operator would: INFERGATE_CONFIG_JSON.
describeCorsContract('edge app on Node', (file) =>
  startEdgeOnNode({ INFERGATE_API_KEYS: testApiKey, INFERGATE_CONFIG_JSON: JSON.stringify(file) }),
);
