import { createKeyStore, type GatewayConfig, type GatewayDeps, type MetricsSink, type UpstreamConfig } from '@infergate/core';
import { createLocalBackend, type LocalBackendOptions } from '@infergate/local-backend';
import { createInProcessTransport, createUpstreamPort, type UpstreamTransport } from '@infergate/upstream';
import { createUndiciTransport } from '@infergate/upstream/node';
import { createIdSource } from './create-id-source.js';

export interface GatewayDepsOptions {
  /** Options of the embedded local backend, for upstreams marked `local`. */
  localBackend?: LocalBackendOptions;
  /** Replaces the transport choice (tests); by default local upstreams run in-process, others over undici. */
  transportFor?: (upstream: UpstreamConfig) => UpstreamTransport;
  metrics?: MetricsSink;
}

const noMetrics: MetricsSink = { record: () => undefined };

/** Wires core's ports to their Node implementations: nothing here decides anything about requests. */
export function createGatewayDeps(config: GatewayConfig, options: GatewayDepsOptions = {}): GatewayDeps {
  let localHandler: ((request: Request) => Promise<Response>) | undefined;
  const defaultTransportFor = (upstream: UpstreamConfig): UpstreamTransport => {
    if (upstream.local) {
      // One embedded backend for every local upstream: its tokenizer is loaded once.
      localHandler ??= createLocalBackend(options.localBackend ?? {});
      return createInProcessTransport(localHandler);
    }
    return createUndiciTransport(upstream);
  };
  return {
    config,
    upstream: createUpstreamPort({
      upstreams: config.upstreams,
      timeouts: config.timeouts,
      retries: config.retries,
      transportFor: options.transportFor ?? defaultTransportFor,
    }),
    keys: createKeyStore(config.keys),
    clock: { now: () => Date.now() },
    ids: createIdSource(),
    metrics: options.metrics ?? noMetrics,
  };
}
