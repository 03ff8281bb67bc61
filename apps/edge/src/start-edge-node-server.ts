import type { ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import {
  GatewayError,
  errorResult,
  requestIdFor,
  requestLogLine,
  type GatewayConfig,
  type RequestLogLine,
} from '@infergate/core';
import type { LocalBackendOptions } from '@infergate/local-backend';
import { createThreadedLocalBackend } from '@infergate/local-backend/node';
import { createInProcessTransport, type Transport } from '@infergate/upstream';
import {
  closeHttpServer,
  createFetchBodyAdmission,
  createGatewayHttpServer,
  limitConnections,
  listenHttpServer,
  statusAnsweredOnSocket,
  withGeneratedKey,
} from '@infergate/node-runtime';
import { createEdgeGateway, type EdgeGateway } from './create-edge-gateway.js';
import type { EdgeBindings } from './edge-bindings.js';
import { resolveEdgeConfig } from './resolve-edge-config.js';
import { toResponse } from './to-response.js';

/** docs/design.md: the edge app on Node listens on 127.0.0.1:8787 by default. */
export const defaultEdgePort = 8787;

export interface EdgeNodeServerOptions {
  /** process.env by default; read like Workers bindings, plus HOST and PORT. */
  env?: EdgeBindings;
  /** Overrides HOST and PORT (tests use port 0). */
  host?: string;
  port?: number;
  localBackend?: LocalBackendOptions;
  /** Where the one line per request goes (main-node.ts: JSON lines on stdout at LOG_LEVEL); none when absent. */
  log?: (line: RequestLogLine) => void;
}

export interface EdgeNodeServer extends EdgeGateway {
  config: GatewayConfig;
  /** `http://host:port` of the listening socket. */
  url: string;
  /** The key generated because none was configured; shown once by the caller, nowhere else. */
  generatedKey: string | undefined;
  /**
   * Graceful shutdown: stops accepting, lets running responses finish for up to `graceMs` (default
   * `timeouts.shutdownGraceMs`), ends the streams still running with their terminal error shortly
   * before the deadline, then closes every connection.
   */
  close(graceMs?: number): Promise<void>;
  /** The drain before a shutdown: /readyz answers 503 from now on, every other request is served as before. */
  drain(): void;
}

/** The local backend in worker threads (as the node-server runs it), stopped with the gateway. */
function threadedLocalTransport(options: LocalBackendOptions): Transport {
  const backend = createThreadedLocalBackend(options);
  return { ...createInProcessTransport(backend.handle), close: backend.close };
}

/**
 * The edge app on Node through @hono/node-server. Without INFERGATE_LOCAL_BACKEND_URL the local
 * backend is mounted in-process, as the node-server does. Throws core's ConfigError on a bad configuration.
 */
export async function startEdgeNodeServer(
  options: EdgeNodeServerOptions = {},
): Promise<EdgeNodeServer> {
  const env = options.env ?? (process.env as EdgeBindings);
  const { config, generatedKey } = withGeneratedKey(resolveEdgeConfig(env));
  const localTransport =
    typeof env.INFERGATE_LOCAL_BACKEND_URL === 'string' &&
    env.INFERGATE_LOCAL_BACKEND_URL.trim() !== ''
      ? undefined
      : threadedLocalTransport(options.localBackend ?? {});
  const shutdown = new AbortController();
  // The node-server's protections: the in-flight body budget and body idle limit, its timeouts and its client-error answers.
  const admitBody = createFetchBodyAdmission({
    maxInflightBodyBytes: config.limits.maxInflightBodyBytes,
    bodyIdleMs: config.timeouts.bodyIdleMs,
  });
  const gateway = createEdgeGateway(config, {
    localTransport,
    shutdown: shutdown.signal,
    admitBody,
    log: options.log,
    // @hono/node-server hands each request's Node response to the app as `env.outgoing`.
    answeredOnSocket: (context) =>
      statusAnsweredOnSocket((context.env as { outgoing: ServerResponse }).outgoing),
  });
  const hostname = options.host ?? config.server.host;
  const port =
    options.port ??
    (typeof env.PORT === 'string' && env.PORT.trim() !== '' ? config.server.port : defaultEdgePort);
  const { timeouts } = config;
  const { ids } = gateway.gateway.deps;
  // What Node and @hono/node-server refuse before the app sees a request is answered in the envelope and logged, as on the node-server.
  const listener = getRequestListener(gateway.app.fetch, {
    hostname,
    // A target or Host @hono/node-server cannot build a URL from (a backslash in the path, a malformed Host).
    errorHandler: () => {
      const requestId = requestIdFor(undefined, ids);
      options.log?.(
        requestLogLine({ requestId, method: undefined, route: 'unmatched', status: 400 }),
      );
      return toResponse(
        errorResult(
          GatewayError.badRequest(
            'The request target or Host is not valid.',
            null,
            'malformed_request',
          ),
          'native',
          requestId,
        ),
      );
    },
  });
  const server = createGatewayHttpServer(
    { timeouts, ids, ...(options.log === undefined ? {} : { log: options.log }) },
    (incoming, outgoing) => {
      void listener(incoming, outgoing);
    },
  );
  // The node-server's connection cap and file-descriptor watch (logged on stderr, as the app's other lines).
  limitConnections(server, {
    maxConnections: config.limits.maxConnections,
    metrics: gateway.gateway.deps.metrics,
  });
  const url = await listenHttpServer(server, port, hostname);
  return {
    ...gateway,
    config,
    url,
    generatedKey,
    drain: () => gateway.gateway.drain(),
    close: async (graceMs = timeouts.shutdownGraceMs) => {
      await closeHttpServer(server, graceMs, () =>
        shutdown.abort(new Error('The gateway is shutting down.')),
      );
      await gateway.gateway.close();
    },
  };
}
