import type { Gateway, MetricsSink, UpstreamConfig } from '@infergate/core';
import type * as LocalBackendModule from '@infergate/local-backend/node';
import type { LocalBackendOptions } from '@infergate/local-backend';
import {
  createGatewayPorts,
  createInProcessTransport,
  type PortsConfig,
  type Transport,
} from '@infergate/upstream';
import { createUndiciTransport, nodeEncodeBase64, nodeSha256 } from '@infergate/upstream/node';
import { createGateway, createGatewayMetrics, routeTable, type DocsAssets } from '@infergate/core';
import type { UpstreamTracer } from '@infergate/upstream';
import { StartFailure, loadRedisLimitStore, type LimitStoreLogger } from '@infergate/node-runtime';
import { loadDocsAssets } from './load-docs-assets.js';

export interface NodeGatewayOptions {
  /** Options of the embedded local backend, for upstreams marked `local`. */
  localBackend?: LocalBackendOptions;
  /** Replaces the transport choice (tests); by default local upstreams run in-process, others over undici. */
  transportFor?: (upstream: UpstreamConfig) => Transport;
  /** Prometheus metrics for GET /metrics by default; none with `metrics.enabled: false`. */
  metrics?: MetricsSink;
  /** Traces upstream attempts (buildServer sets it when tracing is configured). */
  tracer?: UpstreamTracer;
  /** The reference page's script; read from @scalar/api-reference at start while docs are on. */
  docsAssets?: DocsAssets;
  /** Where the Redis limit store logs falling back to local counting and coming back. */
  logger?: LimitStoreLogger;
  /**
   * The CLI's start: wait for the first connection to Redis (when `redis` is configured), so that limits
   * are shared from the first request when it is there; without it the start goes on, counting locally.
   */
  waitForRedis?: boolean;
}

/** A configuration, with the keys' names and model allow-lists when it came from resolveGatewayConfig. */
export type ServerConfig = PortsConfig;

/**
 * Core's gateway with the Node choices: undici for network upstreams, the local backend in-process,
 * Prometheus metrics, Redis for key limits when configured. The ports are upstream's, the gateway is
 * core's: nothing here decides about requests. The gateway's close() releases the pools and Redis.
 */
export async function createNodeGateway(
  config: ServerConfig,
  options: NodeGatewayOptions = {},
): Promise<Gateway> {
  // The local backend (its tokenizer and image library are large) is loaded only when an
  // upstream is served by it, so a gateway in front of real model servers does not carry it.
  const localBackend =
    options.transportFor === undefined && config.upstreams.some((upstream) => upstream.local)
      ? await importLocalBackend()
      : undefined;
  let localTransport: Transport | undefined;
  let networkTransport: Transport | undefined;
  const defaultTransportFor = (upstream: UpstreamConfig): Transport => {
    if (upstream.local && localBackend) {
      // One embedded backend for every local upstream entry, its work in worker threads so that a large
      // prompt never holds this event loop; the gateway's close() stops them.
      if (localTransport === undefined) {
        const backend = localBackend.createThreadedLocalBackend(options.localBackend ?? {});
        localTransport = { ...createInProcessTransport(backend.handle), close: backend.close };
      }
      return localTransport;
    }
    // One transport for all network upstreams: it keeps one keep-alive pool per origin.
    networkTransport ??= createUndiciTransport();
    return networkTransport;
  };
  const metrics = options.metrics ?? defaultMetrics(config);
  const clock = { now: () => Date.now() };
  const ports = createGatewayPorts(config, {
    transportFor: options.transportFor ?? defaultTransportFor,
    sha256: nodeSha256,
    encodeBase64: nodeEncodeBase64,
    clock,
    metrics,
    ...(options.tracer === undefined ? {} : { tracer: options.tracer }),
    ...docsAssetsFor(config, options),
  });
  // Key limits shared through Redis when configured (ioredis loaded only then); otherwise core counts them in this process.
  const limiter =
    config.redis === undefined
      ? undefined
      : await loadRedisLimitStore(
          {
            ...config.redis,
            clock,
            metrics,
            ...(options.logger === undefined ? {} : { logger: options.logger }),
          },
          { waitForConnection: options.waitForRedis === true },
        );
  return createGateway({
    config,
    ports: limiter === undefined ? ports : { ...ports, limiter },
    ...(config.keyEntries === undefined ? {} : { keyEntries: config.keyEntries }),
  });
}

async function importLocalBackend(): Promise<typeof LocalBackendModule> {
  try {
    return await import('@infergate/local-backend/node');
  } catch (error) {
    // The `infergate` package has it as an optional dependency: an install may leave it out.
    const missing =
      (error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' &&
      (error as Error).message.includes("'@infergate/local-backend'");
    if (!missing) throw error;
    throw new StartFailure(
      'the embedded local backend (@infergate/local-backend) is not installed, and models no upstream serves need it; install it (npm install @infergate/local-backend) or configure upstreams for every model (INFERGATE_CONFIG or --config)',
    );
  }
}

function defaultMetrics(config: ServerConfig): MetricsSink {
  if (config.metrics?.enabled === false) return { record: () => undefined };
  // Label values come from the config only, so the series stay bounded whatever clients send.
  const keyNames = (config.keyEntries ?? []).flatMap((entry) =>
    typeof entry !== 'string' && entry.name !== undefined ? [entry.name] : [],
  );
  return createGatewayMetrics({
    catalogue: config.catalogue,
    operationIds: routeTable.map((route) => route.operationId),
    upstreamNames: config.upstreams.map((upstream) => upstream.name),
    keyNames,
    redis: config.redis !== undefined,
  });
}

function docsAssetsFor(
  config: ServerConfig,
  options: NodeGatewayOptions,
): { docsAssets?: DocsAssets } {
  if (options.docsAssets !== undefined) return { docsAssets: options.docsAssets };
  return config.docs?.enabled === false ? {} : { docsAssets: loadDocsAssets() };
}
