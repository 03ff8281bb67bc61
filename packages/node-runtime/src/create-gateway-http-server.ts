import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayError, type IdSource, type TimeoutsConfig } from '@infergate/core';
import { createClientErrorHandler } from './create-client-error-handler.js';
import { createExpectationHandler } from './create-expectation-handler.js';
import { lacksHost } from './lacks-host.js';
import type { NodeRefusalOptions } from './node-refusal-options.js';
import { refuseRequest } from './refuse-request.js';
import { serverOptions } from './server-options.js';

export interface GatewayHttpServerOptions extends NodeRefusalOptions {
  timeouts: TimeoutsConfig;
  ids: IdSource;
}

/**
 * A node:http server with the gateway's inbound limits (serverOptions) whose own refusals (slow,
 * oversized or malformed requests, an Expect it cannot meet, no Host) are answered in the envelope,
 * logged and counted as the app's requests are; every other request goes to `handle`.
 */
export function createGatewayHttpServer(
  options: GatewayHttpServerOptions,
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Server {
  const { ids } = options;
  const server = createServer(serverOptions(options.timeouts), (request, response) => {
    if (lacksHost(request))
      refuseRequest(request, response, GatewayError.missingHost(), ids, options);
    else handle(request, response);
  });
  server.on('clientError', createClientErrorHandler(ids, options));
  server.on('checkExpectation', createExpectationHandler(ids, options));
  return server;
}

/** Listens on `host:port`; resolves with the `http://host:port` it listens on (the port chosen when 0). */
export function listenHttpServer(server: Server, port: number, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      resolve(
        `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`,
      );
    });
  });
}
