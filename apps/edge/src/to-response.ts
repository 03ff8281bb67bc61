import { joinedBody, type HandlerResult } from '@infergate/core';

/**
 * A core result as a Web Response, unchanged: JSON with its serialized body, a stream as the stream
 * itself, so the runtime pulls it as the client reads (backpressure) and cancels it when the client
 * goes away (which aborts the upstream call).
 */
export function toResponse(result: HandlerResult): Response {
  // A 204 (a CORS preflight) must have a null body: the Response constructor refuses even an empty one.
  const body =
    result.kind === 'stream'
      ? result.stream
      : result.status === 204
        ? null
        : joinedBody(result.body);
  return new Response(body, { status: result.status, headers: result.headers });
}
