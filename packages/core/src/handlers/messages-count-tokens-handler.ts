import { GatewayError } from '../errors/gateway-error.js';
import { operationFor } from '../protocols/operation-for.js';
import type { RouteHandler } from '../ports/handler-types.js';
import { checkMessagesImages } from '../rules/check-message-images.js';
import { messagesCountTokensRequestSchema } from '../schemas/messages-request-schema.js';
import { parseRequestBody } from '../schemas/parse-request-body.js';
import { messagesToChatMessages, toChatTools } from '../transforms/messages-to-chat-request.js';
import {
  jsonResult,
  resolveAllowedModel,
  sendUpstreamJson,
  upstreamTargetFor,
} from './route-steps.js';

/**
 * POST /v1/messages/count_tokens: the prompt's tokens as the model's own tokenizer counts them (the
 * model server's `/tokenize`, as POST /tokenize uses), the chat template and tools included.
 */
export const messagesCountTokensHandler: RouteHandler = async (input, context) => {
  const request = parseRequestBody(messagesCountTokensRequestSchema, input.body);
  // The models POST /v1/messages answers with: an embedding model's tokenizer counts no chat prompt.
  const entry = resolveAllowedModel(context, request.model, 'chat');
  checkMessagesImages(entry, request.messages);
  const target = upstreamTargetFor(context, entry);
  if (target.tokenize === false) throw GatewayError.tokenizeNotOffered(entry.id);
  const tokenize = operationFor(target, entry.id, 'tokenizeChat');
  const messages = messagesToChatMessages(request.system, request.messages);
  const tools = request.tools === undefined ? undefined : toChatTools(request.tools);
  const answer = await sendUpstreamJson(
    context,
    input,
    entry.id,
    tokenize.request(target, tools === undefined ? { messages } : { messages, tools }),
  );
  const { tokens } = tokenize.read(answer.body);
  // No inputTokens in meta: counting tokens is not inference and is not billed as input.
  return jsonResult(
    { input_tokens: tokens.length },
    { model: entry.id, endpoint: answer.endpoint },
  );
};
