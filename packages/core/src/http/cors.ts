import type { GatewayConfig } from '../config/gateway-config.js';

// What a browser script may read of a response beyond the CORS-safelisted headers: the request id,
// the key's rate-limit and budget state, the parameters the gateway ignored, the model that answered
// (and the models left for it) and when (or whether) to retry.
const exposedHeaders = [
  'x-request-id',
  'x-ratelimit-limit-requests',
  'x-ratelimit-remaining-requests',
  'x-ratelimit-reset-requests',
  'x-ratelimit-limit-tokens',
  'x-ratelimit-remaining-tokens',
  'x-ratelimit-reset-tokens',
  'x-infergate-ignored-params',
  'x-infergate-model',
  'x-infergate-fallback',
  'x-infergate-cost',
  'x-infergate-budget-remaining',
  'x-infergate-budget-reset',
  'x-should-retry',
  'retry-after',
].join(', ');

// Always allowed in a preflight: the key and the JSON body's type, and the request id a client may send.
const allowedHeaders = ['authorization', 'content-type', 'x-request-id'];
// A header name is an HTTP token; anything else in Access-Control-Request-Headers is not echoed.
const headerName = /^[!#$%&'*+.^_`|~0-9a-z-]{1,64}$/;

/** How long a browser may reuse a preflight answer, in seconds (browsers cap it: Chromium at 7200). */
export const corsMaxAgeSeconds = 600;

/** The allowed `Origin` of a request, or undefined when CORS is off or the origin is not listed. */
export function allowedOrigin(
  config: GatewayConfig,
  origin: string | undefined,
): string | undefined {
  const origins = config.server.cors?.origins;
  if (origins === undefined || origin === undefined || origin === 'null') return undefined;
  return origins.includes('*') || origins.includes(origin) ? origin : undefined;
}

/**
 * The CORS headers of an actual (non-preflight) response: the echoed origin and the headers a script
 * may read when the origin is allowed, `Vary: Origin` whenever CORS is on (the answer depends on it),
 * nothing otherwise, so a disallowed origin gets a response its browser will not hand to the script.
 */
export function corsResponseHeaders(
  config: GatewayConfig,
  origin: string | undefined,
): Record<string, string> {
  if (config.server.cors === undefined) return {};
  const allowed = allowedOrigin(config, origin);
  if (allowed === undefined) return { vary: 'Origin' };
  return {
    'access-control-allow-origin': allowed,
    'access-control-expose-headers': exposedHeaders,
    vary: 'Origin',
  };
}

/** Adds corsResponseHeaders to a result's own headers, without an object per request when CORS is off. */
export function addCorsHeaders(
  headers: Record<string, string>,
  config: GatewayConfig,
  origin: string | undefined,
): void {
  if (config.server.cors === undefined) return;
  const allowed = allowedOrigin(config, origin);
  if (allowed !== undefined) {
    headers['access-control-allow-origin'] = allowed;
    headers['access-control-expose-headers'] = exposedHeaders;
  }
  headers.vary = 'Origin';
}

/**
 * The headers of a CORS preflight answer (204), or undefined when this OPTIONS request is not a
 * preflight the gateway accepts (CORS off, no Origin or Access-Control-Request-Method, an origin not
 * listed): the caller then answers as without CORS. `methods` are the path's methods in the route
 * table. No key is asked: a browser never sends credentials with a preflight.
 */
export function preflightHeaders(
  config: GatewayConfig,
  header: (name: string) => string | undefined,
  methods: readonly string[],
): Record<string, string> | undefined {
  const origin = allowedOrigin(config, header('origin'));
  if (
    origin === undefined ||
    header('access-control-request-method') === undefined ||
    methods.length === 0
  )
    return undefined;
  const requested = (header('access-control-request-headers') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => headerName.test(name));
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': methods.join(', '),
    'access-control-allow-headers': [...new Set([...allowedHeaders, ...requested])].join(', '),
    'access-control-max-age': String(corsMaxAgeSeconds),
    vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
  };
}
