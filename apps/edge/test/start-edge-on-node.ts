import type { RequestLogLine } from '@infergate/core';
import type { StartedGateway } from '@infergate/testkit';
import { startEdgeNodeServer, type EdgeNodeServer } from '../src/start-edge-node-server.js';
import { testApiKey } from './edge-test-env.js';

export interface NodeEdgeGateway extends StartedGateway {
  server: EdgeNodeServer;
}

/** The edge app on Node (@hono/node-server) on 127.0.0.1:0, with the given bindings as its environment. */
export async function startEdgeOnNode(
  bindings: Record<string, string>,
  log?: (line: RequestLogLine) => void,
): Promise<NodeEdgeGateway> {
  const server = await startEdgeNodeServer({
    env: bindings,
    host: '127.0.0.1',
    port: 0,
    ...(log === undefined ? {} : { log }),
  });
  return { baseUrl: server.url, apiKey: testApiKey, server, close: () => server.close() };
}
