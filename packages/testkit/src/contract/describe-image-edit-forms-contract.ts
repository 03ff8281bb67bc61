import { createOpenAI } from '@ai-sdk/openai';
import { generateImage } from 'ai';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawHttpRequest } from '../raw-http-request.js';
import { startRecordingUpstream, type RecordingUpstream } from '../start-recording-upstream.js';
import {
  asArray,
  asRecord,
  ContractClient,
  toJsonReply,
  type JsonReply,
  type StartedGateway,
} from './contract-client.js';
import { expectNativeError } from './expect-envelopes.js';
import { holdToContract } from './hold-to-contract.js';
import { imageSize } from './test-images.js';

// The fields the API requires beside the image; an SDK user passes them as its options.
const fields = {
  model: 'alpha-image-edit',
  prompt: 'paint the sky blue',
  output_format: 'png',
  quality: 'low',
  size: '40x30',
};

/** A multipart body as `curl -F image=@in.png -F prompt=...` writes it: its boundary, one part per field. */
function curlForm(
  parts: readonly { name: string; value: string | Uint8Array; filename?: string; type?: string }[],
): { contentType: string; body: Buffer } {
  const boundary = '------------------------d74496d66958873e';
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const file = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    const type = part.type === undefined ? '' : `\r\nContent-Type: ${part.type}`;
    pieces.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${file}${type}\r\n\r\n`,
      ),
      Buffer.from(part.value),
      Buffer.from('\r\n'),
    );
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(pieces) };
}

async function postForm(
  client: ContractClient,
  form: { contentType: string; body: Uint8Array },
): Promise<JsonReply> {
  const url = client.url('/v1/images/edits');
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...client.headers(), 'content-type': form.contentType },
    body: new Uint8Array(form.body),
  });
  return toJsonReply(await holdToContract('POST', url, response));
}

/** The one image of an image result, decoded. */
function editedImage(reply: JsonReply): Buffer {
  expect(reply.status, reply.text).toBe(200);
  const data = asArray(asRecord(reply.json).data).map(asRecord);
  expect(data).toHaveLength(1);
  return Buffer.from(data[0]?.b64_json as string, 'base64');
}

const textParts = (values: Record<string, string>) =>
  Object.entries(values).map(([name, value]) => ({ name, value }));

/**
 * POST /v1/images/edits as the official clients send it, a multipart form: openai-node's
 * images.edit, the AI SDK's generateImage with input images, and curl -F, each answered with a real
 * edited image, the same one the JSON form of the request gets; bad forms refused naming the field.
 */
export function describeImageEditFormsContract(
  client: () => ContractClient,
  start: (upstreamUrl: string) => Promise<StartedGateway>,
): void {
  describe('POST /v1/images/edits as a multipart form', () => {
    let photo: Buffer;
    let openai: OpenAI;
    // The JSON form's answer for the same image and fields: the local backend blends the image it is
    // sent, so the same picture back means the form's file reached it byte for byte.
    let fromJson: Buffer;

    beforeAll(async () => {
      const generated = await client().postJson('/v1/images/generations', {
        model: 'alpha-image',
        prompt: 'a harbour at noon',
        output_format: 'png',
        quality: 'low',
        size: '64x48',
      });
      photo = editedImage(generated);
      const { baseUrl, apiKey } = client().gateway;
      openai = new OpenAI({ apiKey, baseURL: `${baseUrl}/v1`, maxRetries: 0 });
      fromJson = editedImage(
        await client().postJson('/v1/images/edits', {
          ...fields,
          images: [{ image_url: `data:image/png;base64,${photo.toString('base64')}` }],
        }),
      );
    });

    it('openai images.edit: one file, a file sent without a type, several files and a mask', async () => {
      const single = await openai.images.edit({
        ...fields,
        output_format: 'png',
        quality: 'low',
        image: await toFile(photo, 'in.png', { type: 'image/png' }),
      });
      const image = Buffer.from(single.data?.[0]?.b64_json ?? '', 'base64');
      expect(imageSize(image)).toEqual({ format: 'png', width: 40, height: 30 });
      expect(image.equals(fromJson)).toBe(true);
      expect([single.size, single.output_format, single.quality]).toEqual(['40x30', 'png', 'low']);

      // A file read from disk reaches the form as application/octet-stream: its bytes say PNG.
      const untyped = await openai.images.edit({
        ...fields,
        output_format: 'png',
        quality: 'low',
        image: await toFile(photo, 'in.png'),
      });
      expect(Buffer.from(untyped.data?.[0]?.b64_json ?? '', 'base64').equals(fromJson)).toBe(true);

      const several = await openai.images.edit({
        ...fields,
        output_format: 'webp',
        quality: 'low',
        image: [await toFile(photo, 'a.png', { type: 'image/png' }), await toFile(photo, 'b.png')],
        mask: await toFile(photo, 'mask.png', { type: 'image/png' }),
        n: 1,
        input_fidelity: 'low',
      });
      const webp = Buffer.from(several.data?.[0]?.b64_json ?? '', 'base64');
      expect(imageSize(webp)).toEqual({ format: 'webp', width: 40, height: 30 });
    });

    it('the AI SDK: generateImage with an input image edits it', async () => {
      const { baseUrl, apiKey } = client().gateway;
      const provider = createOpenAI({ baseURL: `${baseUrl}/v1`, apiKey });
      const result = await generateImage({
        model: provider.image('alpha-image-edit'),
        prompt: { text: fields.prompt, images: [new Uint8Array(photo)] },
        size: '40x30',
        providerOptions: { openai: { quality: 'low', outputFormat: 'png' } },
        maxRetries: 0,
      });
      const image = Buffer.from(result.image.uint8Array);
      expect(imageSize(image)).toEqual({ format: 'png', width: 40, height: 30 });
      expect(image.equals(fromJson)).toBe(true);
    });

    it('a form as curl -F image=@in.png sends it', async () => {
      const reply = await postForm(
        client(),
        curlForm([
          { name: 'image', value: photo, filename: 'in.png', type: 'image/png' },
          ...textParts(fields),
        ]),
      );
      expect(editedImage(reply).equals(fromJson)).toBe(true);
    });

    it('refuses a form without an image, a field of the wrong type, a file that is no image, a broken form, each naming what is wrong', async () => {
      const image = { name: 'image', value: photo, filename: 'in.png', type: 'image/png' };
      expectNativeError(await postForm(client(), curlForm(textParts(fields))), 400, {
        code: 'missing_parameter',
        param: 'image',
      });
      expectNativeError(
        await postForm(client(), curlForm([image, ...textParts({ ...fields, n: 'two' })])),
        400,
        { param: 'n' },
      );
      expectNativeError(
        await postForm(
          client(),
          curlForm([
            { name: 'image', value: 'plain text', filename: 'notes.txt', type: 'text/plain' },
            ...textParts(fields),
          ]),
        ),
        400,
        { param: 'image' },
      );
      expectNativeError(
        await postForm(client(), curlForm([image, ...textParts({ ...fields, colour: 'blue' })])),
        400,
        { code: 'unknown_parameter', param: 'colour' },
      );
      const truncated = curlForm([image, ...textParts(fields)]);
      expectNativeError(
        await postForm(client(), { ...truncated, body: truncated.body.subarray(0, 200) }),
        400,
      );
      expectNativeError(
        await postForm(client(), { contentType: 'multipart/form-data', body: truncated.body }),
        400,
      );
    });

    it('answers 413 naming the image body limit for a form over it, before reading it', async () => {
      const imageBodyLimit = 100 * 1024 * 1024;
      const reply = await rawHttpRequest(client().url('/v1/images/edits'), {
        method: 'POST',
        headers: {
          ...client().headers(),
          'content-type': curlForm([]).contentType,
          'content-length': String(imageBodyLimit + 1),
        },
        chunks: [],
      });
      const headers = new Headers(reply.headers as Record<string, string>);
      const json = JSON.parse(reply.body) as unknown;
      const error = expectNativeError(
        { status: reply.status, headers, text: reply.body, json },
        413,
        {
          code: 'request_too_large',
        },
      );
      expect(String(error.message)).toContain(String(imageBodyLimit));
    });

    describe('against a recording upstream', () => {
      let upstream: RecordingUpstream;
      let gateway: StartedGateway;

      beforeAll(async () => {
        upstream = await startRecordingUpstream();
        gateway = await start(upstream.url);
      });

      afterAll(async () => {
        await gateway?.close();
        await upstream?.close();
      });

      it('sends the upstream the bytes the JSON form of the same request sends', async () => {
        const recording = new ContractClient(gateway);
        const second = Buffer.from(photo.subarray(0, photo.length - 1));
        second[second.length - 1] = 0;
        const json = await recording.postJson('/v1/images/edits', {
          ...fields,
          model: 'alpha-image-edit',
          images: [
            { image_url: `data:image/png;base64,${photo.toString('base64')}` },
            { image_url: `data:image/png;base64,${second.toString('base64')}` },
          ],
          n: 1,
        });
        expect(json.status, json.text).toBe(200);
        const form = await postForm(
          recording,
          curlForm([
            ...textParts(fields),
            { name: 'image[]', value: photo, filename: 'a.png', type: 'image/png' },
            { name: 'image[]', value: second, filename: 'b.png' },
            { name: 'n', value: '1' },
          ]),
        );
        expect(form.status, form.text).toBe(200);
        const sent = upstream.requestsTo('/v1/images/edits');
        expect(sent).toHaveLength(2);
        expect(sent[1]?.rawBody).toBe(sent[0]?.rawBody);
        expect(asArray(asRecord(sent[0]?.body).images)).toHaveLength(2);
      });
    });
  });
}
