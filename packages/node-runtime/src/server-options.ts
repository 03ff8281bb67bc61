import type { ServerOptions } from 'node:http';
import type { TimeoutsConfig } from '@infergate/core';

/**
 * Inbound timeouts of the Node HTTP server (DESIGN.md: headers 30 s, whole request 120 s, keep-alive
 * 72 s). Node checks them every `connectionsCheckingInterval` (30 s by default), which would let a
 * small configured limit run far over; the interval follows the smallest limit instead.
 */
export function serverOptions(timeouts: TimeoutsConfig): ServerOptions {
  const limits = [timeouts.inboundHeadersMs, timeouts.inboundRequestMs].filter((value) => value > 0);
  const smallest = limits.length > 0 ? Math.min(...limits) : 30_000;
  return {
    headersTimeout: timeouts.inboundHeadersMs,
    requestTimeout: timeouts.inboundRequestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionsCheckingInterval: Math.max(10, Math.min(30_000, Math.floor(smallest / 4))),
  };
}
