import { describe, expect, it } from 'vitest';
import type { ModelEntry } from '../catalogue/catalogue-types.js';
import type { CompatEmbedRequest } from '../schemas/compat-embed-request-schema.js';
import { compatEmbedPlan } from './compat-embed-plan.js';

const multimodal: ModelEntry = {
  id: 'mm',
  kind: 'embedding',
  description: '',
  inputModalities: ['text', 'image'],
  serves: ['compat-embed'],
};
const textOnly: ModelEntry = { ...multimodal, id: 'text-only', inputModalities: ['text'] };

// GIF header (GIF89a, logical screen 3x5), the smallest image the header reader knows.
const gifUrl = `data:image/gif;base64,${btoa(String.fromCharCode(0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 3, 0, 5, 0, 0x80, 0, 0))}`;

function request(inputs: CompatEmbedRequest['inputs']): CompatEmbedRequest {
  return { model: 'mm', input_type: 'search_document', embedding_types: ['float'], inputs };
}

describe('compatEmbedPlan', () => {
  it('puts texts in order as text inputs', () => {
    const plan = compatEmbedPlan(
      { model: 'mm', input_type: 'search_query', embedding_types: ['float'], texts: ['a', 'b'] },
      multimodal,
    );
    expect(plan).toEqual({
      count: 2,
      textInputs: [
        { position: 0, text: 'a' },
        { position: 1, text: 'b' },
      ],
      imageInputs: [],
      images: [],
    });
  });

  it('separates inputs holding an image from text-only ones and reads each image header', () => {
    const imageContent = [
      { type: 'text' as const, text: 'x' },
      { type: 'image_url' as const, image_url: { url: gifUrl } },
    ];
    const plan = compatEmbedPlan(
      request([{ content: [{ type: 'text', text: 'a' }] }, { content: imageContent }]),
      multimodal,
    );
    expect(plan.textInputs).toEqual([{ position: 0, text: 'a' }]);
    expect(plan.imageInputs).toEqual([{ position: 1, content: imageContent }]);
    expect(plan.images).toEqual([{ format: 'gif', width: 3, height: 5, bitDepth: 1 }]);
  });

  it('refuses an image for a model without image input, naming the block', () => {
    expect(() =>
      compatEmbedPlan(
        request([{ content: [{ type: 'image_url', image_url: { url: gifUrl } }] }]),
        textOnly,
      ),
    ).toThrow(expect.objectContaining({ status: 400, param: 'inputs[0].content[0]' }));
  });

  it('refuses unreadable image data, naming the url', () => {
    const broken = request([
      { content: [{ type: 'text', text: 'a' }] },
      { content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
    ]);
    expect(() => compatEmbedPlan(broken, multimodal)).toThrow(
      expect.objectContaining({ status: 400, param: 'inputs[1].content[0].image_url.url' }),
    );
  });
});
