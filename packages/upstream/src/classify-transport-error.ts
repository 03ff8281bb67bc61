import { isUpstreamError } from '@infergate/core';
import type { UpstreamError } from '@infergate/core';
import { upstreamFailure } from './upstream-failure.js';

// System and undici codes, read along the cause chain: fetch wraps them as TypeError('fetch failed').cause.
const refusedCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
]);
const connectTimeoutCodes = new Set(['UND_ERR_CONNECT_TIMEOUT']);
const resetCodes = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ERR_STREAM_PREMATURE_CLOSE',
  'UND_ERR_DESTROYED',
]);
const protocolCodes = new Set([
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_INFO',
  'HPE_INVALID_CONSTANT',
  'HPE_INVALID_CHUNK_SIZE',
  'HPE_INVALID_HEADER_TOKEN',
  'HPE_INVALID_STATUS',
  'HPE_INVALID_CONTENT_LENGTH',
  'HPE_UNEXPECTED_CONTENT_LENGTH',
]);

function errorChain(error: unknown): { codes: string[]; names: string[]; messages: string[] } {
  const codes: string[] = [];
  const names: string[] = [];
  const messages: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const record = current as {
      code?: unknown;
      name?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    if (typeof record.code === 'string') codes.push(record.code);
    if (typeof record.name === 'string') names.push(record.name);
    if (typeof record.message === 'string') messages.push(record.message);
    current = record.cause;
  }
  return { codes, names, messages };
}

/**
 * Maps whatever a transport threw to an UpstreamError. `phase` is where the caller was: waiting for
 * the response (`headers`, which also covers connecting when the transport cannot tell) or reading
 * the body (`body`). Connect-level codes always yield phase `connect`.
 */
export function classifyTransportError(error: unknown, phase: 'headers' | 'body'): UpstreamError {
  if (isUpstreamError(error)) return error;
  const { codes, names, messages } = errorChain(error);
  const code = codes[0];
  const has = (set: Set<string>): string | undefined =>
    codes.find((candidate) => set.has(candidate));
  const refused = has(refusedCodes);
  if (refused !== undefined && phase === 'headers')
    return upstreamFailure('refused', 'connect', refused);
  const connectTimeout = has(connectTimeoutCodes);
  if (connectTimeout !== undefined) return upstreamFailure('timeout', 'connect', connectTimeout);
  if (codes.includes('UND_ERR_HEADERS_TIMEOUT'))
    return upstreamFailure('timeout', 'headers', 'UND_ERR_HEADERS_TIMEOUT');
  if (codes.includes('UND_ERR_BODY_TIMEOUT'))
    return upstreamFailure('timeout', 'body', 'UND_ERR_BODY_TIMEOUT');
  if (
    names.includes('AbortError') ||
    codes.includes('ABORT_ERR') ||
    codes.includes('UND_ERR_ABORTED')
  )
    return upstreamFailure('aborted', phase, code);
  const reset = has(resetCodes);
  // undici's fetch reports a body cut short as TypeError('terminated') with the socket error as cause.
  if (
    reset !== undefined ||
    messages.includes('terminated') ||
    messages.includes('other side closed')
  )
    return upstreamFailure('reset', phase, reset ?? code);
  const protocol = has(protocolCodes);
  if (protocol !== undefined) return upstreamFailure('protocol', phase, protocol);
  // fetch's bare "fetch failed" without a known cause: the connection failed before any response.
  if (phase === 'headers' && messages[0] === 'fetch failed')
    return upstreamFailure('reset', 'headers', code);
  return upstreamFailure('protocol', phase, code);
}
