import {
  startRecordingUpstream,
  upstreamsServingEverything,
  type RecordingUpstream,
} from '@infergate/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeGateway, testApiKey } from './start-node-gateway.js';
import { startOtlpReceiver, type OtlpReceiver } from './start-otlp-receiver.js';

const incomingTraceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const incomingSpanId = '00f067aa0ba902b7';
const traceparentPattern = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

let upstream: RecordingUpstream;
let receiver: OtlpReceiver;

beforeAll(async () => {
  upstream = await startRecordingUpstream();
  receiver = await startOtlpReceiver();
});

afterAll(async () => {
  await upstream.close();
  await receiver.close();
});

function chat(baseUrl: string, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${testApiKey}`,
      'content-type': 'application/json',
      ...headers,
    },
    body: JSON.stringify({
      model: 'alpha36-35b-a3b-instruct',
      messages: [{ role: 'user', content: 'hi' }],
    }),
  });
}

describe('traces on the node-server', () => {
  it('are off by default: the upstream sees no traceparent', async () => {
    const gateway = await startNodeGateway({ upstreams: upstreamsServingEverything(upstream.url) });
    try {
      upstream.clear();
      expect((await chat(gateway.baseUrl)).status).toBe(200);
      expect(upstream.requestsTo('/v1/chat/completions')[0]?.headers.traceparent).toBeUndefined();
    } finally {
      await gateway.close();
    }
  });

  it('continue an incoming traceparent, pass it to the upstream and export both spans over OTLP', async () => {
    const gateway = await startNodeGateway({
      upstreams: upstreamsServingEverything(upstream.url),
      tracing: { otlp_endpoint: receiver.url, service_name: 'infergate-test' },
    });
    upstream.clear();
    try {
      const response = await chat(gateway.baseUrl, {
        traceparent: `00-${incomingTraceId}-${incomingSpanId}-01`,
      });
      expect(response.status).toBe(200);
      await response.text();
    } finally {
      // Shutting down flushes the batched spans to the receiver.
      await gateway.close();
    }
    const sent = upstream.requestsTo('/v1/chat/completions')[0]?.headers.traceparent;
    const [, traceId, upstreamParentId] = traceparentPattern.exec(String(sent)) ?? [];
    expect(traceId).toBe(incomingTraceId);

    const server = receiver.spans.find(
      (span) => span.name === 'POST /v1/chat/completions' && span.kind === 2,
    );
    const client = receiver.spans.find((span) => span.kind === 3);
    expect(server).toMatchObject({ traceId: incomingTraceId, parentSpanId: incomingSpanId });
    expect(client).toMatchObject({
      traceId: incomingTraceId,
      parentSpanId: server?.spanId,
      spanId: upstreamParentId,
      name: 'POST /v1/chat/completions',
    });
    const attribute = (key: string) => server?.attributes.find((entry) => entry.key === key)?.value;
    expect(attribute('http.response.status_code')).toEqual({ intValue: 200 });
    expect(attribute('infergate.model')).toEqual({ stringValue: 'alpha36-35b-a3b-instruct' });
    expect(receiver.serviceNames).toContain('infergate-test');
  });

  it('start a new trace when the request carries none', async () => {
    const gateway = await startNodeGateway({
      upstreams: upstreamsServingEverything(upstream.url),
      tracing: { otlp_endpoint: receiver.url },
    });
    upstream.clear();
    try {
      expect((await chat(gateway.baseUrl)).status).toBe(200);
    } finally {
      await gateway.close();
    }
    const [, traceId] =
      traceparentPattern.exec(
        String(upstream.requestsTo('/v1/chat/completions')[0]?.headers.traceparent),
      ) ?? [];
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(traceId).not.toBe(incomingTraceId);
    const server = receiver.spans.find((span) => span.traceId === traceId && span.kind === 2);
    expect(server?.parentSpanId ?? '').toBe('');
  });
});
