import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../errors/gateway-error.js';
import { pngBytes, toDataUrl } from '../images/test-image-bytes.js';
import { readFormParts } from './read-form-parts.js';

/** A body as a client's FormData serializes it, and its Content-Type with the boundary. */
async function serialized(
  form: FormData,
): Promise<{ body: Uint8Array<ArrayBuffer>; type: string }> {
  const request = new Request('http://client.test/', { method: 'POST', body: form });
  return {
    body: new Uint8Array(await request.arrayBuffer()),
    type: request.headers.get('content-type') ?? '',
  };
}

describe('readFormParts', () => {
  it('gives the parts in order: text as text, each file as its data URL', async () => {
    const image = new Uint8Array(pngBytes(3, 2));
    const form = new FormData();
    form.append('prompt', 'make it blue');
    form.append('image[]', new Blob([image], { type: 'image/png' }), 'a.png');
    form.append('image[]', new Blob([image]), 'b.png');
    form.append('n', '1');
    const { body, type } = await serialized(form);
    const parts = (await readFormParts(body, type)).map((part) =>
      part.kind === 'file' ? { ...part, dataUrl: part.dataUrl.toJSON() } : part,
    );
    expect(parts).toEqual([
      { kind: 'field', name: 'prompt', value: 'make it blue' },
      { kind: 'file', name: 'image[]', dataUrl: toDataUrl('image/png', image) },
      { kind: 'file', name: 'image[]', dataUrl: toDataUrl('image/png', image) },
      { kind: 'field', name: 'n', value: '1' },
    ]);
  });

  it('refuses a body that is no multipart form with 400', async () => {
    const body = new TextEncoder().encode('--x\r\nnot a part');
    const error = await readFormParts(body, 'multipart/form-data; boundary=other').catch(
      (caught: unknown) => caught,
    );
    expect(isGatewayError(error) && error.status).toBe(400);
  });
});
