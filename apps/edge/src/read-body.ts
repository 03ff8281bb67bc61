import { GatewayError, isGatewayError } from '@infergate/core';
import { readBoundedBytes } from '@infergate/upstream';
import type { FetchBodyTicket } from '@infergate/node-runtime';

/**
 * The body of a request, counted while it is read: over `limitBytes` it is a 413, answered from
 * Content-Length before reading a byte when that already says so (Hono has no body limit of its
 * own). Routes that take no body (limit 0) get undefined and the body is left unread. `ticket` counts a
 * chunked body's bytes against the in-flight body budget and stops a body that stops arriving (Node only).
 */
export async function readBodyBytes(
  request: Request,
  limitBytes: number,
  ticket?: FetchBodyTicket,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (limitBytes === 0) return undefined;
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limitBytes)
    throw GatewayError.payloadTooLarge(limitBytes);
  if (request.body === null) return new Uint8Array(0);
  try {
    // docs/design.md: a chunked body stops at the limit, never buffered whole. The rest is left to the
    // answer (answerBeforeBody), which drops what is still in flight. On Node, a chunked body that
    // would pass the in-flight body budget is 503 overloaded, the rest left unread.
    const admit =
      ticket === undefined
        ? undefined
        : (chunk: Uint8Array): void => {
            if (!ticket.take(chunk.byteLength)) throw GatewayError.overloaded();
          };
    const bytes = await readBoundedBytes(
      request.body,
      limitBytes,
      () => GatewayError.payloadTooLarge(limitBytes),
      admit,
      ticket?.signal,
    );
    ticket?.received();
    // readBoundedBytes' bytes are its own ArrayBuffer, never a shared one.
    return bytes as Uint8Array<ArrayBuffer>;
  } catch (error) {
    if (isGatewayError(error)) throw error;
    // The client went away or sent a broken body: as the node-server answers it.
    throw GatewayError.badRequest('The request could not be read.');
  }
}
