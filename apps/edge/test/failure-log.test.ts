import { startRecordingUpstream } from '@infergate/testkit';
import { createJsonLog } from '@infergate/core';
import { describe, expect, it } from 'vitest';
import { createEdgeGateway } from '../src/create-edge-gateway.js';
import { resolveEdgeConfig } from '../src/resolve-edge-config.js';

const bodyCanary = 'canary-upstream-body-e4f1';
const apiKey = 'edge-key-canary-0123456789';

describe('a 5xx on the edge app', () => {
  it('logs one warn line with the upstream name, model, attempts and cause, and no body or key', async () => {
    const upstream = await startRecordingUpstream({
      handlers: {
        'POST /v1/chat/completions': (_request, response) => {
          response.writeHead(500, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: { message: bodyCanary } }));
        },
      },
    });
    const written: string[] = [];
    // The Worker's log as worker.ts builds it, at warn: only the failure is written.
    const log = createJsonLog({ level: 'warn', write: (text) => written.push(text) });
    try {
      const config = resolveEdgeConfig({
        INFERGATE_API_KEYS: apiKey,
        INFERGATE_CONFIG_JSON: JSON.stringify({
          upstreams: [
            {
              name: 'gpu-pool-a',
              url: upstream.url,
              protocol: 'openai',
              models: { 'alpha36-35b-a3b-instruct': 'served' },
            },
          ],
        }),
      });
      const { app } = createEdgeGateway(config, { log });
      const response = await app.request('/v1/chat/completions', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          'x-request-id': 'edge-fail-1',
        },
        body: JSON.stringify({
          model: 'alpha36-35b-a3b-instruct',
          messages: [{ role: 'user', content: 'hi' }],
        }),
      });
      expect(response.status).toBe(502);
      expect(written).toHaveLength(1);
      expect(JSON.parse(written[0] as string)).toMatchObject({
        level: 40,
        msg: 'request',
        requestId: 'edge-fail-1',
        route: '/v1/chat/completions',
        status: 502,
        model: 'alpha36-35b-a3b-instruct',
        upstream: 'gpu-pool-a',
        attempts: 1,
        cause: 'bad_status',
        upstreamStatus: 500,
      });
      expect(written[0]).not.toContain(bodyCanary);
      expect(written[0]).not.toContain(apiKey);
      expect(written[0]).not.toContain(upstream.url);
    } finally {
      await upstream.close();
    }
  });
});
