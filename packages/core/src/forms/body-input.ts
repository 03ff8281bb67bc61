import { GatewayError } from '../errors/gateway-error.js';
import { readFormParts } from './read-form-parts.js';
import type { HandlerInput, RouteDefinition } from '../ports/handler-types.js';
import type { Base64Encoder } from '../ports/ports.js';
import { isMultipartForm } from '../http/check-before-body.js';

// A byte-order mark is kept, as the node-server keeps it, so that both apps hand a handler the same
// text (a BOM is then malformed JSON in both). Bytes that are not UTF-8 are refused, not replaced.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A body read whole as bytes (the edge app's reader) as a handler takes it: the parts of a multipart
 * form on a route that takes forms, parsed by the runtime's `formData()`; otherwise UTF-8 text (400
 * for bytes that are not UTF-8).
 */
export async function bodyInput(
  route: RouteDefinition,
  bytes: Uint8Array<ArrayBuffer>,
  contentType: string | undefined,
  encodeBase64?: Base64Encoder,
): Promise<Pick<HandlerInput, 'body' | 'form'>> {
  if (route.multipart === true && contentType !== undefined && isMultipartForm(contentType))
    return { body: undefined, form: await readFormParts(bytes, contentType, encodeBase64) };
  try {
    return { body: decoder.decode(bytes) };
  } catch {
    throw GatewayError.invalidUtf8();
  }
}
