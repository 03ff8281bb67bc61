import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../catalogue/default-catalogue.js';
import type { ModelEntry } from '../catalogue/catalogue-types.js';
import { isGatewayError } from '../errors/gateway-error.js';
import { pngBytes, toDataUrl } from '../images/test-image-bytes.js';
import type { ChatMessage } from '../schemas/chat-completions-request-schema.js';
import type { ResponsesRequest } from '../schemas/responses-request-schema.js';
import { checkInputImages, checkMessageImages } from './check-message-images.js';

const model = defaultCatalogue.models.get('alpha36-35b-a3b-instruct') as ModelEntry;
const textOnly: ModelEntry = { ...model, id: 'text-only', inputModalities: ['text'] };
const small = toDataUrl('image/png', pngBytes(640, 480));
const edge = toDataUrl('image/png', pngBytes(4096, 4096));
const tooWide = toDataUrl('image/png', pngBytes(4097, 10));

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error)) return { status: error.status, param: error.param };
    throw error;
  }
  throw new Error('expected a refusal');
}

function chatWith(url: string): ChatMessage[] {
  return [
    { role: 'system', content: 'Describe.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'look' },
        { type: 'image_url', image_url: { url: small } },
        { type: 'image_url', image_url: { url } },
      ],
    },
  ];
}

describe('checkMessageImages (chat)', () => {
  it('accepts data URLs up to 4096 px a side and counts them', () => {
    expect(checkMessageImages(model, chatWith(edge))).toBe(2);
    expect(checkMessageImages(model, [{ role: 'user', content: 'no images' }])).toBe(0);
  });

  it.each([
    ['a side over 4096 px', tooWide],
    ['an http URL (never fetched)', 'http://127.0.0.1:9/cat.png'],
    ['a non-image data URL', 'data:text/html;base64,PGgxPg=='],
    ['unreadable image data', 'data:image/png;base64,AAAAAAAA'],
  ])('refuses %s, naming the exact field', (_case, url) => {
    expect(refusal(() => checkMessageImages(model, chatWith(url)))).toEqual({
      status: 400,
      param: 'messages[1].content[2].image_url.url',
    });
  });

  it('refuses images for a model without image input', () => {
    expect(refusal(() => checkMessageImages(textOnly, chatWith(small)))).toEqual({
      status: 400,
      param: 'messages[1].content[1].image_url.url',
    });
  });
});

describe('checkInputImages (responses)', () => {
  const input = (url: string): ResponsesRequest['input'] => [
    {
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: 'what?' },
        { type: 'input_image', image_url: url },
      ],
    },
  ];

  it('accepts a data URL and counts it', () => {
    expect(checkInputImages(model, input(small))).toBe(1);
    expect(checkInputImages(model, 'just text')).toBe(0);
  });

  it('refuses a URL or an oversized image, naming input[i].content[j].image_url', () => {
    expect(refusal(() => checkInputImages(model, input('https://example.com/a.png')))).toEqual({
      status: 400,
      param: 'input[0].content[1].image_url',
    });
    expect(refusal(() => checkInputImages(model, input(tooWide)))).toEqual({
      status: 400,
      param: 'input[0].content[1].image_url',
    });
  });
});
