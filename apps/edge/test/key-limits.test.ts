import { describe, expect, it } from 'vitest';
import { createEdgeGateway } from '../src/create-edge-gateway.js';
import { resolveEdgeConfig } from '../src/resolve-edge-config.js';

// On the edge app, the same key limits, counted by core's in-memory store of this isolate.
describe('key limits on the edge app (in-memory, per isolate)', () => {
  it('sends the rate-limit headers and answers 429 with Retry-After past requests_per_minute', async () => {
    const config = resolveEdgeConfig({
      INFERGATE_CONFIG_JSON: JSON.stringify({
        keys: [{ key: 'edge-key-0123456789', name: 'edge', limits: { requests_per_minute: 1 } }],
      }),
      INFERGATE_LOCAL_BACKEND_URL: 'http://127.0.0.1:9',
    });
    const { app } = createEdgeGateway(config);
    const send = (): Promise<Response> =>
      Promise.resolve(
        app.request('/v1/embeddings', {
          method: 'POST',
          headers: {
            authorization: 'Bearer edge-key-0123456789',
            'content-type': 'application/json',
          },
          // An unknown model: answered by the handler after the limiter counted the request, no upstream needed.
          body: JSON.stringify({ model: 'no-such-model', input: 'hello' }),
        }),
      );
    const first = await send();
    expect(first.status).toBe(404);
    expect(first.headers.get('x-ratelimit-limit-requests')).toBe('1');
    expect(first.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    const second = await send();
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await second.json()) as { error: { code: string } }).error.code).toBe(
      'rate_limit_exceeded',
    );
  });
});
