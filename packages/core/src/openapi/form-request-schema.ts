import type { JsonSchema } from '../schemas/json-schema.js';

const file = (description: string): JsonSchema => ({
  type: 'string',
  format: 'binary',
  contentMediaType: 'application/octet-stream',
  description,
});

/**
 * The multipart/form-data form of an image-edit body, from its JSON form's schema: the files take the
 * place of `images` and `mask`, every other field is a form field of the same name and type.
 */
export function formRequestSchema(json: JsonSchema): JsonSchema {
  const properties = { ...(json.properties as Record<string, JsonSchema> | undefined) };
  delete properties.images;
  delete properties.mask;
  const required = ((json.required as string[] | undefined) ?? []).filter(
    (name) => name !== 'images',
  );
  return {
    type: 'object',
    description:
      "The form the official clients send. Send `image` (one file) or `image[]` (one part per file, up to 16): each file becomes the base64 data URL of the JSON form, with the part's image media type or, for application/octet-stream, the one its bytes show (PNG, JPEG, WebP or GIF).",
    properties: {
      image: file('One input image.'),
      'image[]': { type: 'array', items: file('An input image.'), maxItems: 16 },
      mask: file('Accepted and ignored, as in the JSON form; it must still be a readable image.'),
      ...properties,
    },
    required,
  };
}
