import type { RouteHandler } from '../ports/handler-types.js';
import type { ResultMeta } from '../ports/handler-types.js';
import { estimatePromptTokens } from '../limits/estimate-request-tokens.js';
import { checkTextBesideImages, checkTextBodySize } from '../http/check-text-body-size.js';
import { checkMessageImages } from '../rules/check-message-images.js';
import { chatImageUrls } from '../rules/request-image-urls.js';
import { parseChatCompletionsRequest } from '../schemas/chat-request-fast-path.js';
import { usageCostOf } from '../config/request-cost.js';
import { sseResponseHeaders } from '../sse/sse-response-headers.js';
import { toClientChatCompletion } from '../transforms/chat-completion-response.js';
import { chatStreamToClientStream } from '../transforms/chat-stream-transform.js';
import { ignoredParamsHeader, jsonResult } from './route-steps.js';
import { planTextGeneration, sendChatCompletion, sendChatStream } from './text-generation-steps.js';

/** POST /v1/chat/completions (spec): a chat completion object, or its chunk stream. */
export const chatCompletionsHandler: RouteHandler = async (input, context) => {
  const textLimit = context.config.limits.bodyTextBytes;
  const imagesLeftOut = checkTextBodySize(input.body, textLimit);
  const request = parseChatCompletionsRequest(input.body);
  if (imagesLeftOut && input.body !== undefined)
    checkTextBesideImages(input.body, chatImageUrls(request.messages), textLimit);
  const plan = planTextGeneration(context, request, 'chat', {
    effortParam: 'reasoning_effort',
    effortWithoutPolicy: 'refuse',
    checkImages: (entry) => checkMessageImages(entry, request.messages),
    promptTokens: () => estimatePromptTokens(input.body),
  });
  const clearThinking = plan.entry.reasoning?.clearThinking === true;
  const headers = ignoredParamsHeader(plan.ignored);

  if (request.stream === true) {
    const upstream = await sendChatStream(context, input, plan);
    const meta: ResultMeta = { model: plan.entry.id, endpoint: upstream.endpoint };
    const events = chatStreamToClientStream(upstream.events, {
      model: plan.entry.id,
      id: `chatcmpl-${context.ids.hex(32)}`,
      clearThinking,
      includeUsage: plan.call.includeUsage,
      meta,
      costOf: usageCostOf(context.config.prices, plan.entry.id),
    });
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
  const body = toClientChatCompletion(completion, {
    model: plan.entry.id,
    clearThinking,
    id: `chatcmpl-${context.ids.hex(32)}`,
    now: Math.floor(context.clock.now() / 1000),
  });
  return jsonResult(
    body,
    {
      model: plan.entry.id,
      endpoint,
      inputTokens: body.usage.prompt_tokens,
      outputTokens: body.usage.completion_tokens,
    },
    headers,
  );
};
