import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../catalogue/default-catalogue.js';
import type { UpstreamHealth } from '../ports/ports.js';
import { createGatewayMetrics } from './create-gateway-metrics.js';

const metrics = () =>
  createGatewayMetrics({
    catalogue: defaultCatalogue,
    operationIds: ['createChatCompletion', 'listModels'],
    upstreamNames: ['gpu-a', 'gpu-b'],
    keyNames: ['team-a'],
  });
const base = { requestId: 'r1', durationMs: 120, firstByteMs: 40, streamed: false };

function sampleLines(text: string, name: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));
}

describe('createGatewayMetrics', () => {
  it('counts requests by route, model, status, upstream and key, with tokens by model and key', () => {
    const sink = metrics();
    const request = {
      ...base,
      operationId: 'createChatCompletion',
      status: 200,
      model: 'alpha36-35b-a3b-instruct',
      endpoint: 'gpu-a',
      keyName: 'team-a',
    };
    sink.observe({ ...request, inputTokens: 7, outputTokens: 3 });
    sink.observe({ ...request, inputTokens: 5, outputTokens: 2 });
    const text = sink.exposition();
    expect(sampleLines(text, 'infergate_requests_total')).toEqual([
      'infergate_requests_total{route="createChatCompletion",model="alpha36-35b-a3b-instruct",status="200",upstream="gpu-a",key="team-a"} 2',
    ]);
    expect(sampleLines(text, 'infergate_input_tokens_total')).toEqual([
      'infergate_input_tokens_total{model="alpha36-35b-a3b-instruct",key="team-a"} 12',
    ]);
    expect(sampleLines(text, 'infergate_output_tokens_total')).toEqual([
      'infergate_output_tokens_total{model="alpha36-35b-a3b-instruct",key="team-a"} 5',
    ]);
    expect(text).toContain(
      'infergate_time_to_first_byte_seconds_bucket{route="createChatCompletion",model="alpha36-35b-a3b-instruct",upstream="gpu-a",le="0.05"} 2',
    );
    expect(text).toContain(
      'infergate_request_duration_seconds_bucket{route="createChatCompletion",model="alpha36-35b-a3b-instruct",upstream="gpu-a",le="0.1"} 0',
    );
    expect(text).toContain(
      'infergate_request_duration_seconds_count{route="createChatCompletion",model="alpha36-35b-a3b-instruct",upstream="gpu-a"} 2',
    );
  });

  it("charges a -pe request's prompt enhancement to the text model, the drawing to the image model", () => {
    const sink = metrics();
    sink.observe({
      ...base,
      operationId: 'createImage',
      status: 200,
      model: 'alpha-image-pe',
      inputTokens: 0,
      outputTokens: 4160,
      promptEnhancement: {
        model: 'alpha35-122b-a10b-instruct-general',
        inputTokens: 57,
        outputTokens: 88,
      },
    });
    const text = sink.exposition();
    expect(sampleLines(text, 'infergate_input_tokens_total')).toEqual([
      'infergate_input_tokens_total{model="alpha35-122b-a10b-instruct-general",key="none"} 57',
    ]);
    expect(sampleLines(text, 'infergate_output_tokens_total').sort()).toEqual([
      'infergate_output_tokens_total{model="alpha-image-pe",key="none"} 4160',
      'infergate_output_tokens_total{model="alpha35-122b-a10b-instruct-general",key="none"} 88',
    ]);
  });

  it('bounds labels: unknown operations, models and upstreams become other, keys without a configured name unnamed, nothing none', () => {
    const sink = metrics();
    sink.observe({
      ...base,
      operationId: 'made-up',
      status: 404,
      model: 'my-model\n"x"',
      endpoint: 'not-configured',
      keyName: 'key-3',
    });
    sink.observe({ ...base, operationId: 'listModels', status: 200 });
    const lines = sampleLines(sink.exposition(), 'infergate_requests_total');
    expect(lines).toEqual([
      'infergate_requests_total{route="other",model="other",status="404",upstream="other",key="unnamed"} 1',
      'infergate_requests_total{route="listModels",model="none",status="200",upstream="none",key="none"} 1',
    ]);
  });

  it('counts rejections by reason, and not an upstream failure', () => {
    const sink = metrics();
    sink.observe({
      ...base,
      operationId: 'createChatCompletion',
      status: 401,
      errorCode: 'invalid_api_key',
    });
    sink.observe({
      ...base,
      operationId: 'createChatCompletion',
      status: 400,
      errorCode: 'invalid_parameter',
    });
    sink.record({ requestId: 'r2', operationId: 'createChatCompletion', status: 413 });
    sink.observe({
      ...base,
      operationId: 'createChatCompletion',
      status: 503,
      errorCode: 'overloaded',
    });
    sink.observe({
      ...base,
      operationId: 'createChatCompletion',
      status: 503,
      errorCode: 'no_healthy_upstream',
    });
    sink.observe({
      ...base,
      operationId: 'createChatCompletion',
      status: 502,
      errorCode: 'upstream_error',
    });
    sink.observe({
      ...base,
      operationId: 'createChatCompletion',
      status: 429,
      errorCode: 'budget_exceeded',
    });
    expect(sampleLines(sink.exposition(), 'infergate_rejected_requests_total')).toEqual([
      'infergate_rejected_requests_total{reason="auth"} 1',
      'infergate_rejected_requests_total{reason="validation"} 1',
      'infergate_rejected_requests_total{reason="size"} 1',
      'infergate_rejected_requests_total{reason="overload"} 1',
      'infergate_rejected_requests_total{reason="rate_limit"} 0',
      'infergate_rejected_requests_total{reason="budget"} 1',
    ]);
  });

  it('tracks active streams, upstream errors by kind, retries and ejections', () => {
    const sink = metrics();
    sink.streamStarted();
    sink.streamStarted();
    sink.streamEnded();
    sink.upstreamError('refused', { upstream: 'gpu-a', model: 'gamma-m3' });
    sink.upstreamError('http_5xx', { upstream: 'gpu-b', model: 'made-up-model' });
    sink.upstreamError('something-new');
    sink.retry();
    sink.endpointEjected();
    const text = sink.exposition();
    expect(sampleLines(text, 'infergate_active_streams')).toEqual(['infergate_active_streams 1']);
    expect(sampleLines(text, 'infergate_upstream_errors_total')).toEqual([
      'infergate_upstream_errors_total{kind="refused",upstream="gpu-a",model="gamma-m3"} 1',
      'infergate_upstream_errors_total{kind="http_5xx",upstream="gpu-b",model="other"} 1',
      'infergate_upstream_errors_total{kind="other",upstream="none",model="none"} 1',
    ]);
    expect(sampleLines(text, 'infergate_upstream_retries_total')).toEqual([
      'infergate_upstream_retries_total 1',
    ]);
    expect(sampleLines(text, 'infergate_upstream_ejections_total')).toEqual([
      'infergate_upstream_ejections_total 1',
    ]);
  });

  it('reads each upstream`s health when rendered: 1 while up, 0 while unreachable or ejected', () => {
    const sink = metrics();
    let gpuA: UpstreamHealth['state'] = 'up';
    const entry = (upstream: string, state: UpstreamHealth['state']): UpstreamHealth => ({
      upstream,
      state,
      models: ['gamma-m3'],
      inFlight: 0,
      consecutiveFailures: 0,
      ejectedForMs: 0,
    });
    sink.watchUpstreams(() => [entry('gpu-a', gpuA), entry('gpu-b', 'ejected')]);
    expect(sampleLines(sink.exposition(), 'infergate_upstream_up')).toEqual([
      'infergate_upstream_up{upstream="gpu-a"} 1',
      'infergate_upstream_up{upstream="gpu-b"} 0',
    ]);
    gpuA = 'unreachable';
    expect(sampleLines(sink.exposition(), 'infergate_upstream_up')).toEqual([
      'infergate_upstream_up{upstream="gpu-a"} 0',
      'infergate_upstream_up{upstream="gpu-b"} 0',
    ]);
  });

  it('shows the Redis connection as 0 until it is up, and only when Redis is configured', () => {
    expect(metrics().exposition()).not.toContain('infergate_redis_connected');
    const sink = createGatewayMetrics({
      catalogue: defaultCatalogue,
      operationIds: [],
      redis: true,
    });
    expect(sampleLines(sink.exposition(), 'infergate_redis_connected')).toEqual([
      'infergate_redis_connected 0',
    ]);
    sink.redisConnected(true);
    expect(sampleLines(sink.exposition(), 'infergate_redis_connected')).toEqual([
      'infergate_redis_connected 1',
    ]);
    sink.redisConnected(false);
    expect(sampleLines(sink.exposition(), 'infergate_redis_connected')).toEqual([
      'infergate_redis_connected 0',
    ]);
  });

  it('counts open and refused connections and file-descriptor episodes by code, from zero', () => {
    const sink = metrics();
    const text = sink.exposition();
    expect(sampleLines(text, 'infergate_connections_refused_total')).toEqual([
      'infergate_connections_refused_total 0',
    ]);
    expect(sampleLines(text, 'infergate_fd_exhausted_total')).toEqual([
      'infergate_fd_exhausted_total{code="EMFILE"} 0',
      'infergate_fd_exhausted_total{code="ENFILE"} 0',
    ]);
    sink.connectionOpened();
    sink.connectionOpened();
    sink.connectionClosed();
    sink.connectionRefused();
    sink.descriptorsExhausted('EMFILE');
    sink.descriptorsExhausted('ESOMETHING');
    const after = sink.exposition();
    expect(sampleLines(after, 'infergate_connections_open')).toEqual([
      'infergate_connections_open 1',
    ]);
    expect(sampleLines(after, 'infergate_connections_refused_total')).toEqual([
      'infergate_connections_refused_total 1',
    ]);
    expect(sampleLines(after, 'infergate_fd_exhausted_total')).toEqual([
      'infergate_fd_exhausted_total{code="EMFILE"} 2',
      'infergate_fd_exhausted_total{code="ENFILE"} 0',
    ]);
  });

  it('writes HELP and TYPE once per metric', () => {
    const text = metrics().exposition();
    expect(text.match(/^# TYPE infergate_requests_total counter$/gm)).toHaveLength(1);
    expect(text).toContain('# TYPE infergate_request_duration_seconds histogram');
    expect(text.endsWith('\n')).toBe(true);
  });
});
