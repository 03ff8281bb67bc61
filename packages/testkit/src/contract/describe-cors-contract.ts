import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedGateway } from './contract-client.js';

/** Starts the app under test from a config-file value, with the gateway's test key; the suite closes it. */
export type StartWithConfig = (file: Record<string, unknown>) => Promise<StartedGateway>;

const allowed = 'https://app.example.com';
const other = 'https://evil.example.net';
const chatBody = JSON.stringify({
  model: 'alpha36-35b-a3b-instruct',
  messages: [{ role: 'user', content: 'hi' }],
  max_tokens: 4,
});

function corsHeaderNames(response: Response): string[] {
  return [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));
}

function preflight(
  gateway: StartedGateway,
  path: string,
  origin: string,
  requestHeaders = 'authorization, content-type',
): Promise<Response> {
  // No Authorization: browsers never send credentials with a preflight.
  return fetch(`${gateway.baseUrl}${path}`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': requestHeaders,
    },
  });
}

function postChat(gateway: StartedGateway, origin: string, withKey = true): Promise<Response> {
  const headers: Record<string, string> = { origin, 'content-type': 'application/json' };
  if (withKey) headers.authorization = `Bearer ${gateway.apiKey}`;
  return fetch(`${gateway.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers,
    body: chatBody,
  });
}

/**
 * CORS for the SDK in browsers (`server.cors.origins`), the same on every app: core decides, the apps
 * only pass headers through. Off by default.
 */
export function describeCorsContract(name: string, start: StartWithConfig): void {
  describe(`${name}: CORS with server.cors.origins`, () => {
    let gateway: StartedGateway;
    beforeAll(async () => {
      gateway = await start({ server: { cors: { origins: [allowed, 'http://localhost:5173'] } } });
    });
    afterAll(async () => {
      await gateway?.close();
    });

    it('answers a preflight from an allowed origin with 204, without a key', async () => {
      const response = await preflight(
        gateway,
        '/v1/chat/completions',
        allowed,
        'Authorization, Content-Type, X-Stainless-Os',
      );
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(allowed);
      // The path's methods in the route table (GET /v1/chat/completions is the stored-items 404).
      expect((response.headers.get('access-control-allow-methods') ?? '').split(', ')).toContain(
        'POST',
      );
      const allowHeaders = (response.headers.get('access-control-allow-headers') ?? '').split(', ');
      expect(allowHeaders).toEqual(
        expect.arrayContaining(['authorization', 'content-type', 'x-stainless-os']),
      );
      expect(Number(response.headers.get('access-control-max-age'))).toBeGreaterThan(0);
      expect(response.headers.get('vary')).toMatch(/\bOrigin\b/);
      expect(await response.text()).toBe('');
    });

    it('gives actual responses to an allowed origin the origin and the headers a script may read', async () => {
      const response = await postChat(gateway, allowed);
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(allowed);
      const exposed = (response.headers.get('access-control-expose-headers') ?? '').split(', ');
      expect(exposed).toEqual(
        expect.arrayContaining([
          'x-request-id',
          'x-ratelimit-remaining-requests',
          'x-ratelimit-reset-tokens',
          'x-infergate-ignored-params',
          'x-infergate-model',
          'x-infergate-fallback',
          'x-infergate-budget-remaining',
          'x-infergate-budget-reset',
          'x-should-retry',
          'retry-after',
        ]),
      );
      expect(response.headers.get('vary')).toMatch(/\bOrigin\b/);
      await response.body?.cancel();
      // Errors too, so the script can read why: a missing key, an unknown path.
      const unauthorized = await postChat(gateway, allowed, false);
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers.get('access-control-allow-origin')).toBe(allowed);
      const unknown = await fetch(`${gateway.baseUrl}/v1/no-such-path`, {
        headers: { origin: allowed },
      });
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('access-control-allow-origin')).toBe(allowed);
      // A second listed origin is echoed as itself.
      const models = await fetch(`${gateway.baseUrl}/v1/models`, {
        headers: { origin: 'http://localhost:5173', authorization: `Bearer ${gateway.apiKey}` },
      });
      expect(models.status).toBe(200);
      expect(models.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    });

    it('gives an origin not listed no CORS headers at all', async () => {
      const refused = await preflight(gateway, '/v1/chat/completions', other);
      expect(refused.status).toBe(405);
      expect(refused.headers.get('allow')).toMatch(/\bPOST\b/);
      expect(corsHeaderNames(refused)).toEqual([]);
      const response = await postChat(gateway, other);
      expect(response.status).toBe(200);
      expect(corsHeaderNames(response)).toEqual([]);
      await response.body?.cancel();
    });

    it('answers a preflight on an unknown path 404', async () => {
      const response = await preflight(gateway, '/v1/no-such-path', allowed);
      expect(response.status).toBe(404);
    });
  });

  describe(`${name}: CORS off by default`, () => {
    let gateway: StartedGateway;
    beforeAll(async () => {
      gateway = await start({});
    });
    afterAll(async () => {
      await gateway?.close();
    });

    it('answers OPTIONS with 405 and Allow, and no response carries CORS headers', async () => {
      const response = await preflight(gateway, '/v1/chat/completions', allowed);
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toMatch(/\bPOST\b/);
      expect(corsHeaderNames(response)).toEqual([]);
      const chat = await postChat(gateway, allowed);
      expect(chat.status).toBe(200);
      expect(corsHeaderNames(chat)).toEqual([]);
      await chat.body?.cancel();
    });
  });

  it(`${name}: refuses to start with an origin that is not one`, async () => {
    await expect(
      start({ server: { cors: { origins: ['https://app.example.com/path'] } } }),
    ).rejects.toThrow(/server\.cors\.origins\[0\]/);
  });
}
