import { describe, expect, it } from 'vitest';
import type { GatewayConfig, UpstreamConfig } from '@infergate/core';
import { resolveGatewayConfig } from '@infergate/core';
import { createGatewayPorts } from './create-gateway-ports.js';
import { createInProcessTransport } from './in-process-transport.js';

describe('createGatewayPorts', () => {
  it('verifies the configured keys by name and asks the transport of every upstream once', async () => {
    const config = resolveGatewayConfig(
      { keys: [{ key: 'key-with-a-name', name: 'team-a' }] },
      { INFERGATE_API_KEYS: 'plain-key' },
    );
    const asked: UpstreamConfig[] = [];
    const transport = createInProcessTransport(async () => Response.json({ ok: true }));
    const ports = createGatewayPorts(config, {
      transportFor: (upstream) => (asked.push(upstream), transport),
    });
    expect(await ports.keys.verify('key-with-a-name')).toEqual({ name: 'team-a' });
    expect(await ports.keys.verify('plain-key')).toEqual({ name: 'key-1' });
    expect(await ports.keys.verify('nope')).toBeUndefined();
    expect(asked).toEqual(config.upstreams);
    expect(ports.ids.hex(8)).toMatch(/^[0-9a-f]{8}$/);
  });

  it('takes the plain key list of a GatewayConfig without key entries', async () => {
    const { keyEntries: _entries, ...config } = resolveGatewayConfig(
      {},
      { INFERGATE_API_KEYS: 'a-key,b-key' },
    );
    const ports = createGatewayPorts(config satisfies GatewayConfig, {
      transportFor: () => createInProcessTransport(async () => new Response(null)),
    });
    expect(await ports.keys.verify('b-key')).toEqual({ name: 'key-2' });
  });

  it('reaches the upstream through the given transport', async () => {
    const config = resolveGatewayConfig({}, { INFERGATE_API_KEYS: 'k' });
    const seen: string[] = [];
    const ports = createGatewayPorts(config, {
      transportFor: () =>
        createInProcessTransport(
          async (request) => (
            seen.push(new URL(request.url).pathname),
            Response.json({ data: [] })
          ),
        ),
    });
    const target = ports.upstream.target('gamma-m3');
    expect(target?.protocol).toBe('openai');
    const response = await ports.upstream.send({
      modelId: 'gamma-m3',
      path: '/v1/embeddings',
      body: {},
      stream: false,
      signal: new AbortController().signal,
      requestId: 'r-1',
    });
    expect(response.kind).toBe('json');
    expect(seen).toEqual(['/v1/embeddings']);
  });
});

describe('the upstream port of createGatewayPorts', () => {
  it('closes each transport once, however many upstreams share it', async () => {
    const config = resolveGatewayConfig(
      {
        upstreams: [
          { name: 'a', url: 'http://127.0.0.1:9', protocol: 'openai', models: { 'gamma-m3': 'g' } },
          { name: 'b', url: 'http://127.0.0.1:9', protocol: 'openai', models: { 'gamma-m3': 'g' } },
        ],
      },
      { INFERGATE_API_KEYS: 'k' },
    );
    let closed = 0;
    const shared = {
      ...createInProcessTransport(async () => new Response(null)),
      close: async () => void (closed += 1),
    };
    const ports = createGatewayPorts(config, { transportFor: () => shared });
    await ports.upstream.close?.();
    expect(closed).toBe(1);
  });
});
