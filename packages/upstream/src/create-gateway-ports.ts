import type {
  Base64Encoder,
  Clock,
  DocsAssets,
  GatewayConfig,
  GatewayPorts,
  IdSource,
  LimitStore,
  MetricsSink,
  UpstreamConfig,
} from '@infergate/core';
import { createKeyStore, type KeyStoreEntry, type Sha256 } from '@infergate/core';
import { createUpstreamPort } from './create-upstream-port.js';
import { createWebIdSource } from './create-web-id-source.js';
import type { Transport } from './transport.js';
import type { UpstreamTracer } from './upstream-tracer.js';

export interface GatewayPortsOptions {
  /**
   * The transport of each upstream, asked once per upstream: the app decides how upstreams marked
   * `local` are reached (in-process, or at a URL) and which network client the others get. The
   * gateway's close() closes each transport once.
   */
  transportFor(upstream: UpstreamConfig): Transport;
  /** Web Crypto ids by default. */
  ids?: IdSource;
  /** `Date.now` by default. */
  clock?: Clock;
  /** None by default. */
  metrics?: MetricsSink;
  /** Where key limits are counted; in the gateway's process by default. */
  limiter?: LimitStore;
  /** Traces upstream attempts; none by default. */
  tracer?: UpstreamTracer;
  /** The reference page's script, when the app has one to serve at /docs. */
  docsAssets?: DocsAssets;
  /** The key store's digest: WebCrypto's by default; on Node, `nodeSha256` from `@infergate/upstream/node`. */
  sha256?: Sha256;
  /** The `base64` embeddings' encoder: core's own by default; on Node, `nodeEncodeBase64` from `@infergate/upstream/node`. */
  encodeBase64?: Base64Encoder;
}

/** A configuration, with the keys' names and model allow-lists when it came from resolveGatewayConfig. */
export type PortsConfig = GatewayConfig & { keyEntries?: readonly KeyStoreEntry[] };

/**
 * Core's ports for a configuration, the same in every app and runtime: the upstream port over the
 * given transports, the key store (by the named entries when there are any), ids, and what the app
 * chose (clock, metrics, limit store, docs assets). An app hands them to core's createGateway.
 */
export function createGatewayPorts(
  config: PortsConfig,
  options: GatewayPortsOptions,
): GatewayPorts {
  return {
    upstream: createUpstreamPort({
      upstreams: config.upstreams,
      timeouts: config.timeouts,
      retries: config.retries,
      transportFor: options.transportFor,
      ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
      ...(options.tracer === undefined ? {} : { tracer: options.tracer }),
    }),
    keys: createKeyStore(
      config.keyEntries ?? config.keys,
      options.sha256 === undefined ? {} : { sha256: options.sha256 },
    ),
    ids: options.ids ?? createWebIdSource(),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
    ...(options.limiter === undefined ? {} : { limiter: options.limiter }),
    ...(options.encodeBase64 === undefined ? {} : { encodeBase64: options.encodeBase64 }),
    ...(options.docsAssets === undefined ? {} : { docsAssets: options.docsAssets }),
  };
}
