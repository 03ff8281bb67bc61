import type { HandlerResult } from '@infergate/core';

/**
 * A core result as a Web Response, unchanged: JSON with its serialized body, a stream as the stream
 * itself, so the runtime pulls it as the client reads (backpressure) and cancels it when the client
 * goes away (which aborts the upstream call).
 */
export function toResponse(result: HandlerResult): Response {
  return new Response(result.kind === 'json' ? result.body : result.stream, { status: result.status, headers: result.headers });
}
