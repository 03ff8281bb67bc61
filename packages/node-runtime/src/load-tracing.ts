import type { GatewayTracing, TracingOptions } from './create-tracing.js';

/**
 * OpenTelemetry tracing, its libraries imported only now: a gateway without `tracing` in its
 * configuration (nor OTEL_EXPORTER_OTLP_ENDPOINT) never loads them.
 */
export async function loadTracing(options: TracingOptions): Promise<GatewayTracing> {
  const { createTracing } = await import('./tracing.js');
  return createTracing(options);
}
