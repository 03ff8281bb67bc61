import { describe, expect, it } from 'vitest';
import { chatRoute } from '../../test/test-routes.js';
import { isGatewayError } from '../errors/gateway-error.js';
import { bodyInput } from './body-input.js';

const handler = async () =>
  ({ kind: 'json', status: 200, headers: {}, body: '', meta: {} }) as const;
const jsonRoute = chatRoute(handler);
const formRoute = chatRoute(handler, { multipart: true });
const encoder = new TextEncoder();

describe('bodyInput', () => {
  it('is the text of a JSON body, byte-order mark kept, and a 400 for bytes that are not UTF-8', async () => {
    const text = '\uFEFF{"model":"m"}';
    expect(await bodyInput(jsonRoute, encoder.encode(text), 'application/json')).toEqual({
      body: text,
    });
    const error = await bodyInput(
      jsonRoute,
      new Uint8Array([0x7b, 0xff, 0x7d]),
      'application/json',
    ).catch((caught: unknown) => caught);
    expect(isGatewayError(error) && [error.status, error.code]).toEqual([400, 'invalid_json']);
  });

  it("is a form's parts only on a route that takes forms", async () => {
    const form = new FormData();
    form.append('prompt', 'x');
    const sent = new Request('http://client.test/', { method: 'POST', body: form });
    const type = sent.headers.get('content-type') ?? '';
    const bytes = new Uint8Array(await sent.arrayBuffer());
    expect(await bodyInput(formRoute, bytes, type)).toEqual({
      body: undefined,
      form: [{ kind: 'field', name: 'prompt', value: 'x' }],
    });
    expect((await bodyInput(jsonRoute, bytes, type)).form).toBeUndefined();
  });
});
