import { createKeyStore, type GatewayConfig, type GatewayDeps, type MetricsSink, type UpstreamConfig } from '@infergate/core';
import { createLocalBackend, type LocalBackendOptions } from '@infergate/local-backend';
import { createInProcessTransport, createUpstreamPort, type Transport } from '@infergate/upstream';
import { createUndiciTransport } from '@infergate/upstream/node';
import { createIdSource } from './create-id-source.js';

export interface GatewayDepsOptions {
  /** Options of the embedded local backend, for upstreams marked `local`. */
  localBackend?: LocalBackendOptions;
  /** Replaces the transport choice (tests); by default local upstreams run in-process, others over undici. */
  transportFor?: (upstream: UpstreamConfig) => Transport;
  metrics?: MetricsSink;
}

/** A configuration, with the keys' names and model allow-lists when it came from resolveGatewayConfig. */
export type ServerConfig = GatewayConfig & { keyEntries?: Parameters<typeof createKeyStore>[0] };

export interface NodeGatewayDeps extends GatewayDeps {
  /** Releases the upstream connection pools. */
  close(): Promise<void>;
}

const noMetrics: MetricsSink = { record: () => undefined };

/** Wires core's ports to their Node implementations: nothing here decides anything about requests. */
export function createGatewayDeps(config: ServerConfig, options: GatewayDepsOptions = {}): NodeGatewayDeps {
  let localTransport: Transport | undefined;
  let networkTransport: ReturnType<typeof createUndiciTransport> | undefined;
  const defaultTransportFor = (upstream: UpstreamConfig): Transport => {
    if (upstream.local) {
      // One embedded backend for every local upstream entry: its tokenizer is loaded once.
      localTransport ??= createInProcessTransport(createLocalBackend(options.localBackend ?? {}));
      return localTransport;
    }
    // One transport for all network upstreams: it keeps one keep-alive pool per origin.
    networkTransport ??= createUndiciTransport();
    return networkTransport;
  };
  return {
    config,
    upstream: createUpstreamPort({
      upstreams: config.upstreams,
      timeouts: config.timeouts,
      retries: config.retries,
      transportFor: options.transportFor ?? defaultTransportFor,
    }),
    keys: createKeyStore(config.keyEntries ?? config.keys),
    clock: { now: () => Date.now() },
    ids: createIdSource(),
    metrics: options.metrics ?? noMetrics,
    close: async () => {
      await networkTransport?.close();
    },
  };
}
