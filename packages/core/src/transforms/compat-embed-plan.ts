import type { ModelEntry } from '../catalogue/catalogue-types.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ImageHeader } from '../images/read-image-header.js';
import { checkImageDataUrl } from '../rules/check-image-data-url.js';
import type {
  CompatContentBlock,
  CompatEmbedRequest,
} from '../schemas/compat-embed-request-schema.js';

export interface CompatEmbedTextInput {
  /** Index of the input in the request, and of its vector in the response. */
  position: number;
  text: string;
}

export interface CompatEmbedImageInput {
  position: number;
  content: readonly CompatContentBlock[];
}

export interface CompatEmbedPlan {
  /** Number of vectors the response holds: one per input. */
  count: number;
  /** Inputs without an image: embedded together in one batched call. */
  textInputs: CompatEmbedTextInput[];
  /** Inputs with an image: one chat-form call each, since an embedding request takes one message list. */
  imageInputs: CompatEmbedImageInput[];
  /** The header of every image, in request order (the response's `images`). */
  images: ImageHeader[];
}

/**
 * Splits a compat embed request into text and image inputs and checks every image (a base64 data URL
 * with a readable header, else 400 naming `inputs[i].content[j].image_url.url`). The text blocks of one
 * input are joined by a newline, as one text.
 */
export function compatEmbedPlan(request: CompatEmbedRequest, entry: ModelEntry): CompatEmbedPlan {
  if (request.texts !== undefined) {
    return {
      count: request.texts.length,
      textInputs: request.texts.map((text, position) => ({ position, text })),
      imageInputs: [],
      images: [],
    };
  }
  const inputs = request.inputs ?? [];
  const plan: CompatEmbedPlan = {
    count: inputs.length,
    textInputs: [],
    imageInputs: [],
    images: [],
  };
  inputs.forEach((item, position) => {
    const texts: string[] = [];
    let hasImage = false;
    item.content.forEach((block, blockIndex) => {
      if (block.type === 'text') {
        texts.push(block.text);
        return;
      }
      const param = `inputs[${position}].content[${blockIndex}]`;
      if (!entry.inputModalities.includes('image')) {
        throw GatewayError.invalidParameter(
          param,
          `The model '${entry.id}' does not accept image input.`,
        );
      }
      plan.images.push(checkImageDataUrl(block.image_url.url, `${param}.image_url.url`));
      hasImage = true;
    });
    if (hasImage) plan.imageInputs.push({ position, content: item.content });
    else plan.textInputs.push({ position, text: texts.join('\n') });
  });
  return plan;
}
