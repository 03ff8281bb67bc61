import { GatewayError, isGatewayError } from '../errors/gateway-error.js';
import type { FormPart } from '../ports/form-part.js';
import type { ImageInput, SplitDataUrl } from '../images/split-data-url.js';

// The form's file fields: `image` once, or `image[]` for each of several (openai-node's array form).
const imageFields = new Set(['image', 'image[]']);
const fileFields = new Set([...imageFields, 'mask']);
// A form carries only text: these fields are numbers or booleans in the JSON form.
const integerFields = new Set(['n', 'output_compression', 'partial_images']);
const booleanFields = new Set(['stream']);
const integerText = /^-?\d+$/;

/** A form field's text as the JSON value the JSON form would carry; text the type cannot read stays text, for the schema to refuse by name. */
function typedValue(name: string, value: string): unknown {
  if (integerFields.has(name) && integerText.test(value.trim())) return Number(value);
  if (booleanFields.has(name) && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/** An image-edit form as the JSON request value, its image files, and the form field each came from. */
export interface ImageEditForm {
  /**
   * The value the request schema checks: each `images[i].image_url` stands in as its data URL's head
   * (the schema asks only for a string; the files are checked as images later, whole).
   */
  value: Record<string, unknown>;
  images: readonly SplitDataUrl[];
  imageFields: readonly string[];
}

/**
 * The JSON form of an image-edit request from its multipart form: each `image` / `image[]` file, in
 * order, becomes `images[i].image_url`, `mask` becomes `mask.image_url` (both split data URLs), numeric and boolean fields
 * take their JSON types, and every other field is passed as text (the request schema then checks it
 * like any JSON body, unknown fields included). 400 naming the field for a missing image, a file
 * where text belongs or text where a file does, and a field sent twice.
 */
export function imageEditForm(parts: readonly FormPart[]): ImageEditForm {
  const value: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const images: SplitDataUrl[] = [];
  const fields: string[] = [];
  for (const part of parts) {
    const { name } = part;
    if (part.kind === 'file') {
      if (!fileFields.has(name))
        throw GatewayError.invalidParameter(
          name,
          `Invalid value for '${name}': a file was sent where a text field belongs.`,
        );
      if (name === 'mask') {
        if ('mask' in value) throw sentTwice(name);
        value.mask = { image_url: part.dataUrl };
        continue;
      }
      images.push(part.dataUrl);
      fields.push(name);
      continue;
    }
    if (fileFields.has(name))
      throw GatewayError.invalidParameter(
        name,
        `Invalid value for '${name}': must be an image file (a form file part), not text.`,
      );
    if (name === 'images')
      throw GatewayError.invalidParameter(
        name,
        `Invalid value for '${name}': a form sends its images as files in the 'image' field.`,
      );
    if (name in value) throw sentTwice(name);
    value[name] = typedValue(name, part.value);
  }
  if (images.length === 0) throw GatewayError.missingParameter('image');
  value.images = images.map((image) => ({ image_url: image.head }));
  return { value: { ...value }, images, imageFields: fields };
}

/** The checked request with the form's files in place of their stand-ins, as the handler runs it. */
export function withFormImages<Request extends object>(
  request: Request,
  form: ImageEditForm,
): Request & { images: readonly ImageInput[] } {
  return { ...request, images: form.images.map((image) => ({ image_url: image })) };
}

function sentTwice(name: string): GatewayError {
  return GatewayError.invalidParameter(
    name,
    `Invalid value for '${name}': the field is sent more than once.`,
  );
}

const imagePath = /^images\[(\d+)\]\.image_url$/;

/**
 * An error about the JSON form's image fields as the form's client knows them: `images[i].image_url`
 * names the form field of the i-th file, `images` the `image` field, `mask.image_url` the `mask` file.
 */
export function inFormTerms(error: unknown, form: ImageEditForm): unknown {
  if (!isGatewayError(error) || error.param === null) return error;
  const { param } = error;
  const index = imagePath.exec(param)?.[1];
  const field =
    index !== undefined
      ? form.imageFields[Number(index)]
      : param === 'images'
        ? 'image'
        : param === 'mask.image_url'
          ? 'mask'
          : undefined;
  if (field === undefined) return error;
  return new GatewayError({
    status: error.status,
    type: error.type,
    code: error.code,
    param: field,
    message: error.message.replaceAll(`'${param}'`, `'${field}'`),
    headers: error.headers,
  });
}
