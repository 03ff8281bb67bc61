import { GatewayError } from '../errors/gateway-error.js';
import type { Base64Encoder } from '../ports/ports.js';
import type { FormPart } from '../ports/form-part.js';
import { ImageDataUrlWriter } from './image-data-url-writer.js';

/**
 * A multipart/form-data body's parts, parsed by the runtime's own form parser (the Fetch API's
 * `formData()`), for an app that reads the body whole first (the edge app): each file becomes its data
 * URL, each text field stays text. A body the parser cannot read is a 400.
 */
export async function readFormParts(
  body: Uint8Array<ArrayBuffer>,
  contentType: string,
  encodeBase64?: Base64Encoder,
): Promise<FormPart[]> {
  let form: FormData;
  try {
    form = await new Request('http://form.invalid/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    }).formData();
  } catch {
    throw GatewayError.badRequest('The multipart form could not be read.');
  }
  const parts: FormPart[] = [];
  for (const [name, value] of form) {
    if (typeof value === 'string') {
      parts.push({ kind: 'field', name, value });
      continue;
    }
    const writer = new ImageDataUrlWriter(name, value.type, encodeBase64, value.size);
    writer.write(new Uint8Array(await value.arrayBuffer()));
    parts.push(writer.end());
  }
  return parts;
}
