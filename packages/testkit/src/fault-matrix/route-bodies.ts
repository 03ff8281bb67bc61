import { pngDataUrl } from '../contract/test-images.js';

/** A valid body of every POST route that takes one (fault matrix rows 1, 2, 6, 8: the base to break). */
export const validBodies: Readonly<Record<string, Record<string, unknown>>> = {
  '/v1/responses': { model: 'alpha36-35b-a3b-instruct', input: 'Say hi.' },
  '/v1/chat/completions': {
    model: 'alpha36-35b-a3b-instruct',
    messages: [{ role: 'user', content: 'Say hi.' }],
  },
  '/v1/messages': {
    model: 'alpha36-35b-a3b-instruct',
    max_tokens: 16,
    messages: [{ role: 'user', content: 'Say hi.' }],
  },
  '/v1/messages/count_tokens': {
    model: 'alpha36-35b-a3b-instruct',
    messages: [{ role: 'user', content: 'Say hi.' }],
  },
  '/v1/embeddings': { model: 'gamma-m3', input: 'hello' },
  '/compat/v2/embed': {
    model: 'alpha3-vl-embedding-8b',
    inputs: [{ content: [{ type: 'text', text: 'hello' }] }],
    input_type: 'search_document',
  },
  '/compat/v2/rerank': { model: 'gamma-reranker-v2-m3', query: 'q', documents: ['d'] },
  '/v1/images/generations': {
    model: 'alpha-image',
    prompt: 'a red square',
    size: '16x16',
    quality: 'low',
    output_format: 'png',
  },
  '/v1/images/edits': {
    model: 'alpha-image-edit',
    prompt: 'blue',
    images: [{ image_url: pngDataUrl }],
    size: '16x16',
    quality: 'low',
    output_format: 'png',
  },
  '/tokenize': { model: 'alpha36-35b-a3b-instruct', prompt: 'hello' },
};

/** One image-bearing field of one route: a body with `url` in that field, and the `param` an error names. */
export interface ImageField {
  path: string;
  param: string;
  body(url: string): Record<string, unknown>;
}

/** Every field of every route where a client can put an image (rows 8 and 9). */
export const imageFields: readonly ImageField[] = [
  {
    path: '/v1/chat/completions',
    param: 'messages[0].content[1].image_url.url',
    body: (url) => ({
      model: 'alpha36-35b-a3b-instruct',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url } },
          ],
        },
      ],
    }),
  },
  {
    path: '/v1/responses',
    param: 'input[0].content[1].image_url',
    body: (url) => ({
      model: 'alpha36-35b-a3b-instruct',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is this?' },
            { type: 'input_image', image_url: url },
          ],
        },
      ],
    }),
  },
  {
    path: '/compat/v2/embed',
    param: 'inputs[0].content[0].image_url.url',
    body: (url) => ({
      model: 'alpha3-vl-embedding-8b',
      inputs: [{ content: [{ type: 'image_url', image_url: { url } }] }],
      input_type: 'image',
    }),
  },
  {
    path: '/v1/images/edits',
    param: 'images[0].image_url',
    body: (url) => ({
      model: 'alpha-image-edit',
      prompt: 'blue',
      images: [{ image_url: url }],
      size: '16x16',
      quality: 'low',
      output_format: 'png',
    }),
  },
  {
    path: '/v1/images/edits',
    param: 'mask.image_url',
    body: (url) => ({
      model: 'alpha-image-edit',
      prompt: 'blue',
      images: [{ image_url: pngDataUrl }],
      mask: { image_url: url },
      size: '16x16',
      quality: 'low',
      output_format: 'png',
    }),
  },
];
