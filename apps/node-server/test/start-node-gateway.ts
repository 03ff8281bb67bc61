import { resolveGatewayConfig } from '@infergate/core';
import type { StartedGateway } from '@infergate/testkit';
import { buildServer, type BuildServerOptions, type GatewayServer } from '../src/build-server.js';

export const testApiKey = 'ig-test-0123456789abcdef0123456789abcdef';

export interface NodeGateway extends StartedGateway {
  server: GatewayServer;
}

/**
 * The node-server as `pnpm start` builds it, from a config-file value, listening on 127.0.0.1:0.
 * Shutdown grace is short so that tests never wait on DESIGN.md's 30 s default.
 */
export async function startNodeGateway(file: Record<string, unknown> = {}, options: BuildServerOptions = {}): Promise<NodeGateway> {
  const config = resolveGatewayConfig(
    { timeouts: { shutdown_grace_ms: 1000, ...(file.timeouts as object | undefined) }, ...withoutTimeouts(file) },
    { INFERGATE_API_KEYS: testApiKey },
  );
  const server = await buildServer(config, options);
  const address = await server.app.listen({ host: '127.0.0.1', port: 0 });
  return { baseUrl: address, apiKey: testApiKey, server, close: () => server.close() };
}

function withoutTimeouts(file: Record<string, unknown>): Record<string, unknown> {
  const { timeouts: _timeouts, ...rest } = file;
  return rest;
}
