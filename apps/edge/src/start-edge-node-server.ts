import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { GatewayConfig } from '@infergate/core';
import type { LocalBackendOptions } from '@infergate/local-backend';
import { createThreadedLocalBackend } from '@infergate/local-backend/node';
import { createInProcessTransport, type PortsConfig, type Transport } from '@infergate/upstream';
import {
  createClientErrorHandler,
  createFetchBodyAdmission,
  generateApiKey,
  limitConnections,
  serverOptions,
  shutdownDeadlines,
} from '@infergate/node-runtime';
import { createEdgeGateway, type EdgeGateway } from './create-edge-gateway.js';
import type { EdgeBindings } from './edge-bindings.js';
import { resolveEdgeConfig } from './resolve-edge-config.js';

/** DESIGN.md: the edge app on Node listens on 127.0.0.1:8787 by default. */
export const defaultEdgePort = 8787;

export interface EdgeNodeServerOptions {
  /** process.env by default; read like Workers bindings, plus HOST and PORT. */
  env?: EdgeBindings;
  /** Overrides HOST and PORT (tests use port 0). */
  host?: string;
  port?: number;
  localBackend?: LocalBackendOptions;
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

function withGeneratedKey(config: PortsConfig): { config: PortsConfig; generatedKey: string | undefined } {
  if (config.keys.length > 0) return { config, generatedKey: undefined };
  // As the node-server does: 128 random bits, printed once at start (DESIGN.md).
  const generatedKey = generateApiKey();
  return { config: { ...config, keys: [generatedKey], keyEntries: [{ key: generatedKey, name: 'generated' }] }, generatedKey };
}

/**
 * The edge app on Node through @hono/node-server. Without INFERGATE_LOCAL_BACKEND_URL the local
 * backend is mounted in-process, as the node-server does. Throws core's ConfigError on a bad configuration.
 */
export async function startEdgeNodeServer(options: EdgeNodeServerOptions = {}): Promise<EdgeNodeServer> {
  const env = options.env ?? (process.env as EdgeBindings);
  const { config, generatedKey } = withGeneratedKey(resolveEdgeConfig(env));
  const localTransport =
    typeof env.INFERGATE_LOCAL_BACKEND_URL === 'string' && env.INFERGATE_LOCAL_BACKEND_URL.trim() !== ''
      ? undefined
      : threadedLocalTransport(options.localBackend ?? {});
  const shutdown = new AbortController();
  // The node-server's protections: the in-flight body budget and body idle limit, its timeouts and its client-error answers.
  const admitBody = createFetchBodyAdmission({ maxInflightBodyBytes: config.limits.maxInflightBodyBytes, bodyIdleMs: config.timeouts.bodyIdleMs });
  const gateway = createEdgeGateway(config, { localTransport, shutdown: shutdown.signal, admitBody });
  const hostname = options.host ?? config.server.host;
  const port = options.port ?? (typeof env.PORT === 'string' && env.PORT.trim() !== '' ? config.server.port : defaultEdgePort);
  const { timeouts } = config;
  const server = await new Promise<ServerType>((resolve, reject) => {
    const started = serve(
      {
        fetch: gateway.app.fetch,
        hostname,
        port,
        // DESIGN.md's inbound limits; Node's defaults leave a slow request body open far longer.
        serverOptions: serverOptions(timeouts),
      },
      () => resolve(started),
    );
    started.once('error', reject);
  });
  // Oversized headers, smuggling attempts and slow requests answered in the native envelope, as the node-server does.
  server.on('clientError', createClientErrorHandler(gateway.gateway.deps.ids));
  // The node-server's connection cap and file-descriptor watch (logged on stderr, as the app's other lines).
  limitConnections(server, { maxConnections: config.limits.maxConnections, metrics: gateway.gateway.deps.metrics });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    ...gateway,
    config,
    url: `http://${host}:${address.port}`,
    generatedKey,
    drain: () => gateway.gateway.drain(),
    close: (graceMs = timeouts.shutdownGraceMs) =>
      new Promise<void>((resolve, reject) => {
        const http = server as ServerType & { closeIdleConnections(): void; closeAllConnections(): void };
        // Keep-alive connections whose response is over close as they fall idle, so close() is not held open.
        const idle = setInterval(() => http.closeIdleConnections(), 50);
        const cancelDeadlines = shutdownDeadlines(graceMs, {
          endRunning: () => shutdown.abort(new Error('The gateway is shutting down.')),
          cutAll: () => http.closeAllConnections(),
        });
        server.close((error) => {
          clearInterval(idle);
          cancelDeadlines();
          if (error) reject(error);
          else gateway.gateway.close().then(resolve, reject);
        });
        http.closeIdleConnections();
      }),
  };
}
