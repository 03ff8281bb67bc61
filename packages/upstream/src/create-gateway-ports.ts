import type { Clock, DocsAssets, GatewayConfig, GatewayDeps, IdSource, MetricsSink, UpstreamConfig } from '@infergate/core';
import { createKeyStore, type KeyStoreEntry, type Sha256 } from '@infergate/core';
import { createUpstreamPort } from './create-upstream-port.js';
import { createWebIdSource } from './create-web-id-source.js';
import type { Transport } from './transport.js';
import type { UpstreamTracer } from './upstream-tracer.js';

export interface GatewayDepsOptions {
  /**
   * The transport of each upstream, asked once per upstream: the app decides how upstreams marked
   * `local` are reached (in-process, or at a URL) and which network client the others get.
   */
  transportFor(upstream: UpstreamConfig): Transport;
  /** Web Crypto ids by default. */
  ids?: IdSource;
  /** `Date.now` by default. */
  clock?: Clock;
  /** None by default. */
  metrics?: MetricsSink;
  /** Traces upstream attempts; none by default. */
  tracer?: UpstreamTracer;
  /** The reference page's script, when the app has one to serve at /docs. */
  docsAssets?: DocsAssets;
  /** The key store's digest: WebCrypto's by default; on Node, `nodeSha256` from `@infergate/upstream/node`. */
  sha256?: Sha256;
}

/** A configuration, with the keys' names and model allow-lists when it came from resolveGatewayConfig. */
export type DepsConfig = GatewayConfig & { keyEntries?: readonly KeyStoreEntry[] };

const noMetrics: MetricsSink = { record: () => undefined };

/**
 * Core's ports wired for a configuration, the same in every app and runtime: the upstream port over
 * the given transports, the key store (by the named entries when there are any), clock, ids, metrics.
 */
export function createGatewayDeps(config: DepsConfig, options: GatewayDepsOptions): GatewayDeps {
  const metrics = options.metrics ?? noMetrics;
  return {
    config,
    upstream: createUpstreamPort({
      upstreams: config.upstreams,
      timeouts: config.timeouts,
      retries: config.retries,
      transportFor: options.transportFor,
      metrics,
      ...(options.tracer === undefined ? {} : { tracer: options.tracer }),
    }),
    keys: createKeyStore(config.keyEntries ?? config.keys, options.sha256 === undefined ? {} : { sha256: options.sha256 }),
    clock: options.clock ?? { now: () => Date.now() },
    ids: options.ids ?? createWebIdSource(),
    metrics,
    ...(options.docsAssets === undefined ? {} : { docsAssets: options.docsAssets }),
  };
}
