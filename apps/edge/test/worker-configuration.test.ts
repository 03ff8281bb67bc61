import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { expectNativeError, toJsonReply } from '@infergate/testkit';
import { startEdgeInWorkerd, type WorkerdGateway } from './start-edge-in-workerd.js';
import { testApiKey } from './edge-test-env.js';

const wranglerToml = readFileSync(new URL('../wrangler.toml', import.meta.url), 'utf8');

describe('the Worker in workerd refuses to serve a configuration it cannot honour', () => {
  let gateway: WorkerdGateway | undefined;
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
  });

  const models = async (bindings: Record<string, string>) => {
    gateway = await startEdgeInWorkerd(bindings);
    return toJsonReply(
      await fetch(`${gateway.baseUrl}/v1/models`, {
        headers: { authorization: `Bearer ${testApiKey}` },
      }),
    );
  };

  it('answers 503 gateway_not_configured when no API key is configured (no console to print a generated one to)', async () => {
    const reply = await models({ INFERGATE_LOCAL_BACKEND_URL: 'http://127.0.0.1:9' });
    expectNativeError(reply, 503, { code: 'gateway_not_configured' });
    expect(reply.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers 503 when nothing serves the models: no upstream and no INFERGATE_LOCAL_BACKEND_URL', async () => {
    expectNativeError(await models({ INFERGATE_API_KEYS: testApiKey }), 503, {
      code: 'gateway_not_configured',
    });
  });

  it('answers 503 for invalid INFERGATE_CONFIG_JSON without showing the client any of it', async () => {
    const secret = 'upstream-secret-3c2b1a';
    const reply = await models({
      INFERGATE_API_KEYS: testApiKey,
      INFERGATE_CONFIG_JSON: `{"upstreams": [{"api_key": "${secret}"`,
    });
    expectNativeError(reply, 503, { code: 'gateway_not_configured' });
    expect(reply.text).not.toContain(secret);
    expect(reply.text).not.toContain('INFERGATE');
  });

  it('runs with the compatibility settings wrangler.toml deploys with', () => {
    expect(wranglerToml).toMatch(/^main = "dist\/worker\.js"$/m);
    expect(wranglerToml).toMatch(/^compatibility_date = "2026-04-01"$/m);
    expect(wranglerToml).toMatch(/^compatibility_flags = \["enable_request_signal"\]$/m);
  });
});
