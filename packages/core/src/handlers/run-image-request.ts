import { GatewayError } from '../errors/gateway-error.js';
import type {
  HandlerContext,
  HandlerInput,
  JsonResult,
  ResultMeta,
} from '../ports/handler-types.js';
import { checkImageEditInputs } from '../rules/check-image-edit-inputs.js';
import { imageQualityRule } from '../rules/image-quality-rule.js';
import type { ImageInput } from '../images/split-data-url.js';
import type { ImageEditRequest } from '../schemas/image-edit-request-schema.js';
import type { ImageGenerationRequest } from '../schemas/image-generation-request-schema.js';
import type { EnhancedPrompt } from '../protocols/openai/image-enhanced-prompt.js';
import { readImageEnhancedPrompt } from '../protocols/openai/image-enhanced-prompt.js';
import { imagePromptEnhancementRequest } from '../protocols/openai/image-prompt-enhancement-request.js';
import { operationFor } from '../protocols/operation-for.js';
// The steps every non-streaming handler shares live there, so the handlers cannot drift apart.
import {
  jsonResult,
  resolveAllowedModel,
  sendUpstreamJson,
  upstreamTargetFor,
} from './route-steps.js';

/** Response headers that charge a `-pe` request's enhancement tokens to the text model (spec). */
export const promptEnhancementModelHeader = 'x-infergate-prompt-enhancement-model';
export const promptEnhancementTokensHeader = 'x-infergate-prompt-enhancement-tokens';

/**
 * ResultMeta plus the enhancement call, whose tokens belong to another model than `model`.
 * ResultMeta has no field for a second model's usage yet; this extends it locally.
 */
export interface ImageResultMeta extends ResultMeta {
  promptEnhancement?: { model: string; inputTokens: number; outputTokens: number };
}

/** An edit request as the handler runs it: a form's files are split data URLs, not strings. */
export type ImageEditInput = Omit<ImageEditRequest, 'images'> & { images: readonly ImageInput[] };

export type ImageRequest =
  | { endpoint: 'image-generations'; request: ImageGenerationRequest }
  | { endpoint: 'image-edits'; request: ImageEditInput };

/** The upstream name of the `-pe` models' text model; 503 model_not_configured when no upstream serves it. */
function enhancementTarget(context: HandlerContext, textModelId: string): string {
  const entry = context.config.catalogue.models.get(textModelId);
  if (entry === undefined) throw GatewayError.modelNotConfigured(textModelId);
  return upstreamTargetFor(context, entry).model;
}

/**
 * The flow both image endpoints share: resolve and authorize the model, apply the rules, rewrite the
 * prompt first on `-pe` models, call the image model, shape the spec's image result.
 */
export async function runImageRequest(
  input: HandlerInput,
  context: HandlerContext,
  image: ImageRequest,
): Promise<JsonResult> {
  const { endpoint, request } = image;
  const entry = resolveAllowedModel(context, request.model, endpoint);
  const images = image.endpoint === 'image-edits' ? image.request.images : undefined;
  if (image.endpoint === 'image-edits') checkImageEditInputs(image.request);
  const quality = imageQualityRule(request.quality);
  // Both targets are checked before any call, so no enhancement tokens are spent on a request that cannot finish.
  const target = upstreamTargetFor(context, entry);
  const imageOperation = operationFor(
    target,
    entry.id,
    endpoint === 'image-edits' ? 'imageEdit' : 'imageGeneration',
  );
  const textModelId = entry.promptEnhancement?.textModel;
  const enhancer =
    textModelId === undefined
      ? undefined
      : { id: textModelId, upstreamModel: enhancementTarget(context, textModelId) };

  let prompt = request.prompt;
  let enhancement: EnhancedPrompt | undefined;
  if (enhancer !== undefined) {
    const call = imagePromptEnhancementRequest(
      enhancer.upstreamModel,
      request.prompt,
      endpoint === 'image-edits' ? 'edit' : 'generation',
    );
    enhancement = readImageEnhancedPrompt(
      (await sendUpstreamJson(context, input, enhancer.id, call)).body,
    );
    prompt = enhancement.prompt;
  }

  const call = imageOperation.request(target, {
    prompt,
    size: request.size,
    quality,
    outputFormat: request.output_format,
    images,
  });
  const answer = await sendUpstreamJson(context, input, entry.id, call);
  const result = imageOperation.read(answer.body, {
    created: Math.floor(context.clock.now() / 1000),
    outputFormat: request.output_format,
    quality,
    size: request.size,
  });

  const headers: Record<string, string> = {};
  const meta: ImageResultMeta = {
    model: entry.id,
    endpoint: answer.endpoint,
    inputTokens: result.usage.input_tokens,
    outputTokens: result.usage.output_tokens,
    images: result.data.length,
  };
  if (enhancer !== undefined && enhancement !== undefined) {
    headers[promptEnhancementModelHeader] = enhancer.id;
    headers[promptEnhancementTokensHeader] =
      `${enhancement.inputTokens}/${enhancement.outputTokens}`;
    meta.promptEnhancement = {
      model: enhancer.id,
      inputTokens: enhancement.inputTokens,
      outputTokens: enhancement.outputTokens,
    };
  }
  return jsonResult(result, meta, headers);
}
