import { describe, expect, it } from 'vitest';
import { GatewayError, isGatewayError } from '../errors/gateway-error.js';
import type { FormPart } from '../ports/form-part.js';
import { imageEditForm, inFormTerms, withFormImages } from './image-edit-form.js';
import { SplitDataUrl } from '../images/split-data-url.js';

const field = (name: string, value: string): FormPart => ({ kind: 'field', name, value });
const first = new SplitDataUrl('image/png', 'iVBORw0KGgo=');
const second = new SplitDataUrl('image/jpeg', '/9j/4AAQ');
const file = (name: string, dataUrl: SplitDataUrl): FormPart => ({ kind: 'file', name, dataUrl });

function refusal(run: () => unknown): { status: number; code: string; param: string | null } {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error))
      return { status: error.status, code: error.code, param: error.param };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('imageEditForm', () => {
  it('is the JSON form: files as images[].image_url and mask.image_url, numbers and booleans typed', () => {
    const form = imageEditForm([
      field('model', 'alpha-image-edit'),
      file('image[]', first),
      field('prompt', 'make it blue'),
      file('image[]', second),
      file('mask', first),
      field('n', '1'),
      field('output_compression', '80'),
      field('stream', 'false'),
      field('size', '1024x1024'),
    ]);
    expect(form.value).toEqual({
      model: 'alpha-image-edit',
      prompt: 'make it blue',
      // What the schema checks stands in for the files: their heads.
      images: [{ image_url: 'data:image/png;base64,' }, { image_url: 'data:image/jpeg;base64,' }],
      mask: { image_url: first },
      n: 1,
      output_compression: 80,
      stream: false,
      size: '1024x1024',
    });
    expect(form.imageFields).toEqual(['image[]', 'image[]']);
    expect(withFormImages({ prompt: 'x' }, form)).toEqual({
      prompt: 'x',
      images: [{ image_url: first }, { image_url: second }],
    });
  });

  it('takes one plain `image` file, as curl -F image=@in.png sends it', () => {
    const form = imageEditForm([file('image', first), field('prompt', 'x')]);
    expect(form.value).toEqual({ images: [{ image_url: 'data:image/png;base64,' }], prompt: 'x' });
    expect(form.images).toEqual([first]);
  });

  it('leaves text a number field cannot read as text, for the schema to refuse by name', () => {
    expect(imageEditForm([file('image', first), field('n', 'two')]).value.n).toBe('two');
    expect(imageEditForm([file('image', first), field('n', '1.5')]).value.n).toBe('1.5');
  });

  it('refuses a form without an image, text where a file belongs, a file where text belongs, a field sent twice', () => {
    expect(refusal(() => imageEditForm([field('prompt', 'x')]))).toEqual({
      status: 400,
      code: 'missing_parameter',
      param: 'image',
    });
    expect(refusal(() => imageEditForm([field('image', first.toJSON())]))).toMatchObject({
      status: 400,
      param: 'image',
    });
    expect(
      refusal(() => imageEditForm([file('image', first), file('prompt', first)])),
    ).toMatchObject({
      status: 400,
      param: 'prompt',
    });
    expect(
      refusal(() =>
        imageEditForm([file('image', first), field('size', '1x1'), field('size', '2x2')]),
      ),
    ).toMatchObject({ status: 400, param: 'size' });
    expect(
      refusal(() =>
        imageEditForm([file('image', first), file('mask', first), file('mask', first)]),
      ),
    ).toMatchObject({ status: 400, param: 'mask' });
    expect(
      refusal(() => imageEditForm([file('image', first), field('images', '[]')])),
    ).toMatchObject({ status: 400, param: 'images' });
  });
});

describe('inFormTerms', () => {
  const form = imageEditForm([file('image', first), file('image[]', second), file('mask', first)]);

  it("names the form's field where the JSON form's path would not mean anything to the client", () => {
    const renamed = inFormTerms(
      GatewayError.invalidParameter(
        'images[1].image_url',
        "Invalid value for 'images[1].image_url': bad",
      ),
      form,
    ) as GatewayError;
    expect([renamed.param, renamed.message]).toEqual([
      'image[]',
      "Invalid value for 'image[]': bad",
    ]);
    expect((inFormTerms(GatewayError.missingParameter('images'), form) as GatewayError).param).toBe(
      'image',
    );
    expect(
      (inFormTerms(GatewayError.invalidParameter('mask.image_url', 'x'), form) as GatewayError)
        .param,
    ).toBe('mask');
  });

  it('leaves every other error as it is', () => {
    const size = GatewayError.invalidParameter('size', 'x');
    expect(inFormTerms(size, form)).toBe(size);
    const other = new Error('boom');
    expect(inFormTerms(other, form)).toBe(other);
  });
});
