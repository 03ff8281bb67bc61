import { resolveGatewayConfig } from '@infergate/core';
import type { StartedGateway } from '@infergate/testkit';
import { buildServer, type BuildServerOptions, type GatewayServer } from '../src/build-server.js';

export const testApiKey = 'ig-test-0123456789abcdef0123456789abcdef';
/** Opens /metrics on the main port (`metrics.key`) unless the test's file sets a metrics key of its own; `testApiKey` does not. */
export const testMetricsKey = 'ig-test-metrics-0123456789abcdef012345';

export interface NodeGateway extends StartedGateway {
  server: GatewayServer;
}

/**
 * The node-server as `pnpm start` builds it, from a config-file value, listening on 127.0.0.1:0.
 * Shutdown grace is short so that tests never wait on the 30 s default; `testMetricsKey` reads /metrics.
 */
export async function startNodeGateway(
  file: Record<string, unknown> = {},
  options: BuildServerOptions = {},
): Promise<NodeGateway> {
  const config = resolveGatewayConfig(
    {
      timeouts: { shutdown_grace_ms: 1000, ...(file.timeouts as object | undefined) },
      ...withoutTimeouts(file),
      metrics: { key: testMetricsKey, ...(file.metrics as object | undefined) },
    },
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
