import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  GatewayError,
  errorResult,
  requestIdFor,
  type Gateway,
  type JsonResult,
} from '@infergate/core';

export interface MetricsServer {
  /** `http://host:port`. */
  address: string;
  close(): Promise<void>;
}

function send(response: ServerResponse, result: JsonResult): void {
  response.writeHead(result.status, result.headers);
  response.end(result.body);
}

/**
 * GET /metrics on a port of its own (`metrics.port`), for scrapers on a private network, and the
 * operator page (/status, /status.json): no key is asked; every other path is 404 in the native
 * envelope.
 */
export async function startMetricsServer(
  gateway: Gateway,
  host: string,
  port: number,
): Promise<MetricsServer> {
  // The path of core's metrics route: an app declares no route path of its own.
  const metricsPath = gateway.routes.find((route) => route.operationId === 'getMetrics')?.path;
  const server = createServer((request, response) => {
    const incomingId = request.headers['x-request-id'];
    const requestId = requestIdFor(
      Array.isArray(incomingId) ? incomingId[0] : incomingId,
      gateway.deps.ids,
    );
    const path = (request.url ?? '/').split('?', 1)[0] as string;
    try {
      const result =
        request.method !== 'GET'
          ? undefined
          : path === metricsPath
            ? gateway.metricsPortResult()
            : gateway.statusPortResult(path);
      if (result === undefined) throw GatewayError.routeNotFound(request.method ?? 'GET', path);
      send(response, { ...result, headers: { ...result.headers, 'x-request-id': requestId } });
    } catch (error) {
      send(response, errorResult(error, 'native', requestId));
    }
    // A scraper's request has no body worth reading.
    request.resume();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    address: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
