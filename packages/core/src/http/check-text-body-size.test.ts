import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../errors/gateway-error.js';
import { checkTextBesideImages, checkTextBodySize } from './check-text-body-size.js';

const limit = 300;
const image = `data:image/png;base64,${'A'.repeat(5000)}`;

function chat(content: unknown): string {
  return JSON.stringify({ model: 'm', messages: [{ role: 'user', content }] });
}

function refusal(run: () => unknown): { status: number; message: string } {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error)) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('checkTextBodySize', () => {
  it('passes a body whose length alone keeps it within the limit, leaving nothing out', () => {
    expect(checkTextBodySize(chat('x'.repeat(50)), limit)).toBe(false);
    expect(checkTextBodySize(undefined, limit)).toBe(false);
  });

  it('refuses text over the limit with 413 naming it, before any parse', () => {
    const failure = refusal(() => checkTextBodySize(chat('x'.repeat(400)), limit));
    expect(failure.status).toBe(413);
    expect(failure.message).toContain(`limit of ${limit} bytes`);
    // Not even JSON: the size is judged first.
    expect(refusal(() => checkTextBodySize(`{${'x'.repeat(400)}`, limit)).status).toBe(413);
  });

  it('counts UTF-8 bytes, not characters', () => {
    // 120 characters of 3 bytes each: 360 bytes of text in fewer than 300 characters.
    expect(refusal(() => checkTextBodySize(chat('中'.repeat(120)), limit)).status).toBe(413);
    expect(checkTextBodySize(chat('中'.repeat(80)), limit)).toBe(false);
  });

  it('leaves image data URLs out, as JSON writers spell them', () => {
    const parts = [
      { type: 'text', text: 'what is this?' },
      { type: 'image_url', image_url: { url: image } },
    ];
    expect(checkTextBodySize(chat(parts), limit)).toBe(true);
    // PHP's json_encode escapes slashes.
    const escaped = chat([
      { type: 'image_url', image_url: { url: `data:image/png;base64,${'A/'.repeat(2500)}` } },
    ]).replaceAll('/', '\\/');
    expect(checkTextBodySize(escaped, limit)).toBe(true);
    // The text beside the images still counts.
    expect(
      refusal(() =>
        checkTextBodySize(chat([...parts, { type: 'text', text: 'x'.repeat(400) }]), limit),
      ).status,
    ).toBe(413);
  });

  it('does not take an escaped quote inside text for the start of a data URL', () => {
    const body = chat(`see "${image}"`);
    expect(refusal(() => checkTextBodySize(body, limit)).status).toBe(413);
  });
});

describe('checkTextBesideImages', () => {
  it('passes when the left-out literals are the image URLs', () => {
    const body = chat([{ type: 'image_url', image_url: { url: image } }]);
    expect(() => checkTextBesideImages(body, [image], limit)).not.toThrow();
  });

  it('counts a data URL in a text field as text', () => {
    const body = chat(image);
    expect(checkTextBodySize(body, limit)).toBe(true);
    expect(refusal(() => checkTextBesideImages(body, [], limit)).status).toBe(413);
  });
});
