import type { IncomingMessage } from 'node:http';

/**
 * An HTTP/1.1 request without a Host header, which RFC 9112 3.2 says to answer with 400. The apps
 * answer it themselves (core's GatewayError.missingHost), in their envelope: Node's own answer
 * (`requireHostHeader`, off in serverOptions) is an empty 400. HTTP/1.0 has no Host to require.
 */
export function lacksHost(request: IncomingMessage): boolean {
  return (
    request.headers.host === undefined &&
    request.httpVersionMajor === 1 &&
    request.httpVersionMinor === 1
  );
}
