import type { ResultMeta, RouteHandler } from '../ports/handler-types.js';
import { estimatePromptTokens } from '../limits/estimate-request-tokens.js';
import { checkTextBesideImages, checkTextBodySize } from '../http/check-text-body-size.js';
import { checkInputImages } from '../rules/check-message-images.js';
import { inputImageUrls } from '../rules/request-image-urls.js';
import { parseRequestBody } from '../schemas/parse-request-body.js';
import { responsesRequestSchema } from '../schemas/responses-request-schema.js';
import { usageCostOf } from '../config/request-cost.js';
import { sseResponseHeaders } from '../sse/sse-response-headers.js';
import { ignoredParamsHeader, jsonResult } from './route-steps.js';
import {
  chatCompletionToImageFormResponse,
  chatCompletionToResponse,
} from '../transforms/responses-from-chat-completion.js';
import { responsesEcho } from '../transforms/responses-echo.js';
import { chatStreamToResponsesEvents } from '../transforms/responses-stream-transform.js';
import { responsesToChatRequest, wantsLogprobs } from '../transforms/responses-to-chat-request.js';
import { planTextGeneration, sendChatCompletion, sendChatStream } from './text-generation-steps.js';

/**
 * POST /v1/responses (spec), stateless and answered from one upstream chat-completions call: the text
 * form, the form for image input when an input_image part is present (unless configured off), or the
 * responses event stream (the same events for text and image input; the image form has no stream).
 * An agent goes on by sending its history back as input items (docs/design.md: nothing is stored).
 */
export const responsesHandler: RouteHandler = async (input, context) => {
  const textLimit = context.config.limits.bodyTextBytes;
  const imagesLeftOut = checkTextBodySize(input.body, textLimit);
  const request = parseRequestBody(responsesRequestSchema, input.body);
  if (imagesLeftOut && input.body !== undefined)
    checkTextBesideImages(input.body, inputImageUrls(request.input), textLimit);
  let imageCount = 0;
  const plan = planTextGeneration(context, responsesToChatRequest(request), 'responses', {
    effortParam: 'reasoning.effort',
    effortWithoutPolicy: 'ignore',
    checkImages: (entry) => {
      imageCount = checkInputImages(entry, request.input);
    },
    promptTokens: () => estimatePromptTokens(input.body),
  });
  const clearThinking = plan.entry.reasoning?.clearThinking === true;
  const headers = ignoredParamsHeader(plan.ignored);
  const echo = responsesEcho(request, {
    chat: plan.chat,
    reasoningEffort: plan.settings.reasoning_effort,
  });
  const shape = {
    model: plan.entry.id,
    clearThinking,
    ids: context.ids,
    createdAt: Math.floor(context.clock.now() / 1000),
    echo,
    logprobs: wantsLogprobs(request),
  };

  if (request.stream === true) {
    const upstream = await sendChatStream(context, input, plan);
    const meta: ResultMeta = { model: plan.entry.id, endpoint: upstream.endpoint };
    const events = chatStreamToResponsesEvents(
      upstream.events,
      Object.assign({}, shape, { meta, costOf: usageCostOf(context.config.prices, plan.entry.id) }),
    );
    // No onCancel: the transform's return() returns the upstream events at once, pending read or not.
    return {
      kind: 'stream',
      status: 200,
      headers: Object.assign(sseResponseHeaders(), headers),
      events,
      meta,
    };
  }

  const { completion, endpoint } = await sendChatCompletion(context, input, plan);
  const imageForm = imageCount > 0 && context.config.responses.imageInputForm === 'image';
  const body = imageForm
    ? chatCompletionToImageFormResponse(completion, shape)
    : chatCompletionToResponse(completion, shape);
  return jsonResult(
    body,
    {
      model: plan.entry.id,
      endpoint,
      inputTokens: completion.usage?.prompt_tokens,
      outputTokens: completion.usage?.completion_tokens,
    },
    headers,
  );
};
