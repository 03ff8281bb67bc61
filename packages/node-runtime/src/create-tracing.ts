import { AsyncLocalStorage } from 'node:async_hooks';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  defaultTextMapGetter,
  defaultTextMapSetter,
  trace,
  type Span,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { UpstreamTracer } from '@infergate/upstream';

export interface TracingOptions {
  /** OTLP/HTTP base URL; spans go to `<endpoint>/v1/traces` as OTLP JSON. */
  otlpEndpoint: string;
  serviceName: string;
}

export interface RequestSpanFacts {
  method: string;
  /** The route template (`/v1/models/{id}`), never the raw path: span names stay bounded. */
  route: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

export interface GatewayTracing {
  /** Starts the server span of a request, continuing an incoming W3C `traceparent`. */
  startRequest(facts: RequestSpanFacts): Span;
  /** Runs `work` with `span` as the parent of the upstream attempts it makes. */
  runInRequest<Result>(span: Span, work: () => Result): Result;
  /** Ends a request span with what the client got. */
  endRequest(span: Span, facts: { status: number; operationId?: string; model?: string }): void;
  upstreamTracer: UpstreamTracer;
  /** Exports the spans still buffered, then stops. */
  shutdown(): Promise<void>;
}

/**
 * OpenTelemetry traces for one server: a SERVER span per request and a CLIENT span per upstream attempt,
 * exported with OTLP/HTTP. Nothing is registered globally (no global tracer provider or context manager),
 * so several servers in one process keep their own; the request span reaches the upstream attempts through
 * this server's own AsyncLocalStorage.
 */
export function createTracing(options: TracingOptions): GatewayTracing {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [
      new BatchSpanProcessor(
        new OTLPTraceExporter({ url: `${options.otlpEndpoint.replace(/\/+$/, '')}/v1/traces` }),
      ),
    ],
  });
  const tracer = provider.getTracer('infergate');
  const propagator = new W3CTraceContextPropagator();
  const activeRequest = new AsyncLocalStorage<Span>();

  const upstreamTracer: UpstreamTracer = {
    startAttempt(info) {
      const parent = activeRequest.getStore();
      const span = tracer.startSpan(
        `POST ${info.path}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'http.request.method': 'POST',
            'url.path': info.path,
            'infergate.upstream': info.upstream,
            'infergate.model': info.modelId,
            'infergate.attempt': info.attempt,
            'infergate.stream': info.stream,
          },
        },
        parent === undefined ? ROOT_CONTEXT : trace.setSpan(ROOT_CONTEXT, parent),
      );
      const headers: Record<string, string> = {};
      propagator.inject(trace.setSpan(ROOT_CONTEXT, span), headers, defaultTextMapSetter);
      let ended = false;
      return {
        headers,
        end(outcome) {
          if (ended) return;
          ended = true;
          if (outcome.status !== undefined)
            span.setAttribute('http.response.status_code', outcome.status);
          if (outcome.error !== undefined) span.setAttribute('error.type', outcome.error);
          if (outcome.error !== undefined || (outcome.status ?? 0) >= 500)
            span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
  };

  return {
    startRequest(facts) {
      const carrier: Record<string, string> = {};
      for (const name of ['traceparent', 'tracestate']) {
        const value = facts.headers[name];
        if (typeof value === 'string') carrier[name] = value;
      }
      const parent = propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
      return tracer.startSpan(
        `${facts.method} ${facts.route}`,
        {
          kind: SpanKind.SERVER,
          attributes: { 'http.request.method': facts.method, 'http.route': facts.route },
        },
        parent,
      );
    },
    runInRequest: (span, work) => activeRequest.run(span, work),
    endRequest(span, facts) {
      span.setAttribute('http.response.status_code', facts.status);
      if (facts.operationId !== undefined)
        span.setAttribute('infergate.operation_id', facts.operationId);
      if (facts.model !== undefined) span.setAttribute('infergate.model', facts.model);
      if (facts.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
    upstreamTracer,
    // A collector that is down loses the last spans; it must not make the gateway's shutdown fail.
    shutdown: () => provider.shutdown().catch(() => undefined),
  };
}
