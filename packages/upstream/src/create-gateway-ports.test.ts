import { describe, expect, it } from 'vitest';
import type { GatewayConfig, UpstreamConfig } from '@infergate/core';
// Temporary source-path import (issue 6): core's index does not export resolveGatewayConfig yet.
import { resolveGatewayConfig } from '@infergate/core';
import { createGatewayDeps } from './create-gateway-ports.js';
import { createInProcessTransport } from './in-process-transport.js';

describe('createGatewayDeps', () => {
  it('verifies the configured keys by name and asks the transport of every upstream once', async () => {
    const config = resolveGatewayConfig({ keys: [{ key: 'key-with-a-name', name: 'team-a' }] }, { INFERGATE_API_KEYS: 'plain-key' });
    const asked: UpstreamConfig[] = [];
    const transport = createInProcessTransport(async () => Response.json({ ok: true }));
    const deps = createGatewayDeps(config, { transportFor: (upstream) => (asked.push(upstream), transport) });
    expect(await deps.keys.verify('key-with-a-name')).toEqual({ name: 'team-a' });
    expect(await deps.keys.verify('plain-key')).toEqual({ name: 'key-1' });
    expect(await deps.keys.verify('nope')).toBeUndefined();
    expect(asked).toEqual(config.upstreams);
    expect(deps.config).toBe(config);
    expect(deps.ids.hex(8)).toMatch(/^[0-9a-f]{8}$/);
    expect(Math.abs(deps.clock.now() - Date.now())).toBeLessThan(60_000);
  });

  it('takes the plain key list of a GatewayConfig without key entries', async () => {
    const { keyEntries: _entries, ...config } = resolveGatewayConfig({}, { INFERGATE_API_KEYS: 'a-key,b-key' });
    const deps = createGatewayDeps(config satisfies GatewayConfig, { transportFor: () => createInProcessTransport(async () => new Response(null)) });
    expect(await deps.keys.verify('b-key')).toEqual({ name: 'key-2' });
  });

  it('reaches the upstream through the given transport', async () => {
    const config = resolveGatewayConfig({}, { INFERGATE_API_KEYS: 'k' });
    const seen: string[] = [];
    const deps = createGatewayDeps(config, {
      transportFor: () => createInProcessTransport(async (request) => (seen.push(new URL(request.url).pathname), Response.json({ data: [] }))),
    });
    const target = deps.upstream.target('gamma-m3');
    expect(target?.protocol).toBe('openai');
    const response = await deps.upstream.send({ modelId: 'gamma-m3', path: '/v1/embeddings', body: {}, stream: false, signal: new AbortController().signal, requestId: 'r-1' });
    expect(response.kind).toBe('json');
    expect(seen).toEqual(['/v1/embeddings']);
  });
});
