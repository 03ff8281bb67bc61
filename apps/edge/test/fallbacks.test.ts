import { runFallbackContract } from '@infergate/testkit';
import { startLoggedEdge } from './start-logged-edge.js';

runFallbackContract({ name: 'edge app on Node', start: startLoggedEdge });
