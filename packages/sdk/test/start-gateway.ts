/// <reference types="node" />
import { resolveGatewayConfig } from '@infergate/core';
import { buildServer } from '@infergate/node-server';

export interface RunningGateway {
  url: string;
  close(): Promise<void>;
}

/** The Fastify node-server on 127.0.0.1:0, configured from a config-file value as `INFERGATE_CONFIG` would give it. */
export async function startGateway(fileValue: Record<string, unknown>): Promise<RunningGateway> {
  const config = resolveGatewayConfig(fileValue, {});
  const server = await buildServer(config);
  const url = await server.app.listen({ host: '127.0.0.1', port: 0 });
  return { url, close: () => server.close(0) };
}

export const testKey = 'sdk-test-key';
/** May use gamma-m3 only: other models answer 403. */
export const restrictedKey = 'sdk-restricted-key';

/** Zero-config upstreams (the local backend serves every model in-process), with keys and a price. */
export const localGatewayConfig = {
  keys: [testKey, { key: restrictedKey, name: 'restricted', models: ['gamma-m3'] }],
  prices: {
    'alpha36-35b-a3b-instruct': {
      input_per_million: 0.1,
      output_per_million: 0.4,
      currency: 'USD',
    },
  },
};
