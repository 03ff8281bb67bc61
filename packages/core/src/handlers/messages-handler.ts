import type { ModelEntry } from '../catalogue/catalogue-types.js';
import { checkTextBesideImages } from '../http/check-text-body-size.js';
import { estimatePromptTokens } from '../limits/estimate-request-tokens.js';
import type { ResultMeta, RouteHandler } from '../ports/handler-types.js';
import { checkMessagesImages } from '../rules/check-message-images.js';
import { messagesImages } from '../rules/request-image-urls.js';
import type { MessagesRequest } from '../schemas/messages-request-schema.js';
import { messagesRequestSchema } from '../schemas/messages-request-schema.js';
import { parseRequestBody } from '../schemas/parse-request-body.js';
import { sseResponseHeaders } from '../sse/sse-response-headers.js';
import { chatCompletionToMessage } from '../transforms/messages-from-chat-completion.js';
import { chatStreamToMessagesEvents } from '../transforms/messages-stream-transform.js';
import { messagesToChatRequest } from '../transforms/messages-to-chat-request.js';
import { ignoredParamsHeader, jsonResult } from './route-steps.js';
import { planTextGeneration, sendChatCompletion, sendChatStream } from './text-generation-steps.js';

/**
 * A `thinking` setting the model's rule overrides: whether a model thinks is fixed by the catalogue
 * (docs/api.md), and clients such as Claude Code send thinking to every model, so it is reported in
 * x-infergate-ignored-params rather than refused.
 */
function thinkingOverridden(request: MessagesRequest, entry: ModelEntry): boolean {
  const type = request.thinking?.type;
  if (type === undefined) return false;
  return type === 'disabled' ? entry.thinking === true : entry.thinking !== true;
}

/**
 * The text limit (`limits.body_text_bytes`) on a Messages body: its size without the base64 image data,
 * which the Messages API sends as plain strings rather than data URLs, so it is judged once parsed.
 */
function checkMessagesTextSize(
  body: string | undefined,
  request: MessagesRequest,
  limit: number,
): void {
  if (body === undefined || body.length <= limit) return;
  checkTextBesideImages(
    body,
    Array.from(messagesImages(request.messages), (image) => image.data),
    limit,
  );
}

/**
 * POST /v1/messages (the Messages API), stateless and answered from one upstream chat-completions call
 * with every model rule of chat: the Message object, or the Messages event stream.
 */
export const messagesHandler: RouteHandler = async (input, context) => {
  const request = parseRequestBody(messagesRequestSchema, input.body);
  checkMessagesTextSize(input.body, request, context.config.limits.bodyTextBytes);
  const plan = planTextGeneration(context, messagesToChatRequest(request), 'chat', {
    effortParam: 'output_config.effort',
    effortWithoutPolicy: 'ignore',
    checkImages: (entry) => {
      checkMessagesImages(entry, request.messages);
    },
    promptTokens: () => estimatePromptTokens(input.body),
  });
  if (thinkingOverridden(request, plan.entry)) plan.ignored.push('thinking');
  const headers = ignoredParamsHeader(plan.ignored);
  const shape = {
    model: plan.entry.id,
    clearThinking: plan.entry.reasoning?.clearThinking === true,
    ids: context.ids,
    stopSequences: request.stop_sequences,
  };

  if (request.stream === true) {
    const upstream = await sendChatStream(context, input, plan);
    const meta: ResultMeta = { model: plan.entry.id, endpoint: upstream.endpoint };
    const events = chatStreamToMessagesEvents(upstream.events, Object.assign({}, shape, { meta }));
    return {
      kind: 'stream',
      status: 200,
      headers: Object.assign(sseResponseHeaders(), headers),
      events,
      meta,
    };
  }

  const { completion, endpoint } = await sendChatCompletion(context, input, plan);
  return jsonResult(
    chatCompletionToMessage(completion, shape),
    {
      model: plan.entry.id,
      endpoint,
      inputTokens: completion.usage?.prompt_tokens,
      outputTokens: completion.usage?.completion_tokens,
    },
    headers,
  );
};
