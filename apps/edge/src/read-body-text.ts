import { GatewayError, isGatewayError } from '@infergate/core';
import { readBoundedBytes } from '@infergate/upstream';
import type { FetchBodyTicket } from '@infergate/node-runtime';

// The node-server keeps a byte-order mark; so does this, so that both apps hand core the same text (a
// BOM is then core's malformed JSON in both). Bytes that are not UTF-8 are refused, not replaced.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw GatewayError.invalidUtf8();
  }
}

/**
 * The body of a request as text, counted while it is read: over `limitBytes` it is a 413, answered
 * from Content-Length before reading a byte when that already says so (Hono has no body limit of its
 * own). Routes that take no body (limit 0) get undefined and the body is left unread. `ticket` counts a
 * chunked body's bytes against the in-flight body budget and stops a body that stops arriving (Node only).
 */
export async function readBodyText(
  request: Request,
  limitBytes: number,
  ticket?: FetchBodyTicket,
): Promise<string | undefined> {
  if (limitBytes === 0) return undefined;
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limitBytes)
    throw GatewayError.payloadTooLarge(limitBytes);
  if (request.body === null) return '';
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
    return decodeUtf8(bytes);
  } catch (error) {
    if (isGatewayError(error)) throw error;
    // The client went away or sent a broken body: as the node-server answers it.
    throw GatewayError.badRequest('The request could not be read.');
  }
}
