import type { ServerOptions } from 'node:http';
import type { TimeoutsConfig } from '@infergate/core';

/**
 * The Node HTTP server's options both apps use. Inbound timeouts (docs/design.md: headers 30 s, whole
 * request 120 s, keep-alive 72 s): Node checks them every `connectionsCheckingInterval` (30 s by
 * default), which would let a small configured limit run far over; the interval follows the smallest
 * limit instead. Repeated headers are joined by a comma, as Web `Headers` join them: Node would keep
 * only the first of some (Authorization among them), and core refuses two credentials with 400.
 */
export function serverOptions(timeouts: TimeoutsConfig): ServerOptions {
  const limits = [timeouts.inboundHeadersMs, timeouts.inboundRequestMs].filter(
    (value) => value > 0,
  );
  const smallest = limits.length > 0 ? Math.min(...limits) : 30_000;
  return {
    headersTimeout: timeouts.inboundHeadersMs,
    requestTimeout: timeouts.inboundRequestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionsCheckingInterval: Math.max(10, Math.min(30_000, Math.floor(smallest / 4))),
    joinDuplicateHeaders: true,
    // The apps answer an HTTP/1.1 request without Host in their envelope (lacksHost); Node's answer is an empty 400.
    requireHostHeader: false,
  };
}
