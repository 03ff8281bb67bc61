import type { ModelEntry } from '../catalogue/catalogue-types.js';
import { GatewayError } from '../errors/gateway-error.js';
import { mapUpstreamStatus } from '../errors/map-upstream-status.js';
import type { HandlerContext, HandlerInput } from '../ports/handler-types.js';
import { backendEnforcedSamplingRule } from '../rules/backend-enforced-sampling-rule.js';
import { reasoningEffortRule } from '../rules/reasoning-effort-rule.js';
import type { ChatTemplateSettings } from '../rules/reasoning-effort-rule.js';
import type { ChatCompletionsRequest } from '../schemas/chat-completions-request-schema.js';
import type { SseEvent } from '../sse/sse-event.js';
import type { TakeableIterator } from '../sse/takeable-iterator.js';
import type { UpstreamChatCompletion } from '../schemas/upstream-chat-completion-schema.js';
import { protocolAdapters } from '../protocols/protocol-adapters.js';
import type { ChatOperation, ChatUpstreamCall } from '../protocols/upstream-protocol.js';
import { resolveAllowedModel, sendUpstreamJson, upstreamTargetFor } from './route-steps.js';

/*
 * The steps POST /v1/chat/completions and POST /v1/responses share: both reach the upstream as one
 * chat-completions call, so the model rules run once, in one place, for both.
 */

export interface TextGenerationPlan {
  entry: ModelEntry;
  settings: ChatTemplateSettings;
  /** The chat request after the rules (backend-enforced sampling dropped). */
  chat: ChatCompletionsRequest;
  /** Parameters dropped by the rules, for `x-infergate-ignored-params`. */
  ignored: string[];
  /** The upstream call: path, body, and whether the client asked for the usage chunk of a stream. */
  call: ChatUpstreamCall;
  /** The upstream protocol's chat operation, which reads its answer. */
  upstream: ChatOperation;
}

export interface PlanOptions {
  /** The field reasoning effort came in, for error messages: `reasoning_effort` or `reasoning.effort`. */
  effortParam: string;
  /**
   * What an effort sent to a model without a reasoning policy gets: a 400 on chat (docs/design.md), accepted
   * and reported in x-infergate-ignored-params on responses (agent frameworks send reasoning settings
   * to every model).
   */
  effortWithoutPolicy: 'refuse' | 'ignore';
  /** Checks the request's images once the model is known (400s name the client's field). */
  checkImages: (entry: ModelEntry) => void;
  /** The prompt's estimated tokens, read only for a virtual model that falls back on `context_length`. */
  promptTokens: () => number;
}

/** Model resolution, the key's allow-list, docs/design.md's model rules and the upstream body, in that order. */
export function planTextGeneration(
  context: HandlerContext,
  request: ChatCompletionsRequest,
  endpoint: 'chat' | 'responses',
  options: PlanOptions,
): TextGenerationPlan {
  let entry = resolveAllowedModel(context, request.model, endpoint);
  const chain = context.fallback;
  if (chain?.requested === request.model) {
    // A prompt longer than the model's context window moves on before any call, where the route says so.
    let promptTokens: number | undefined;
    while (
      entry.contextWindow !== undefined &&
      (promptTokens ??= options.promptTokens()) > entry.contextWindow &&
      chain.skip('context_length')
    )
      entry = resolveAllowedModel(context, request.model, endpoint);
  }
  const ignoreEffort =
    request.reasoning_effort !== undefined &&
    entry.reasoning === undefined &&
    options.effortWithoutPolicy === 'ignore';
  const settings = reasoningEffortRule(
    entry,
    ignoreEffort ? undefined : request.reasoning_effort,
    options.effortParam,
  );
  // The spec bounds truncate_prompt_tokens by the model's context window.
  if (
    request.truncate_prompt_tokens !== undefined &&
    entry.contextWindow !== undefined &&
    request.truncate_prompt_tokens > entry.contextWindow
  ) {
    throw GatewayError.invalidParameter(
      'truncate_prompt_tokens',
      `truncate_prompt_tokens must be at most the context window of '${entry.id}' (${entry.contextWindow} tokens).`,
    );
  }
  options.checkImages(entry);
  const { request: chat, ignored } = backendEnforcedSamplingRule(entry, request);
  if (ignoreEffort) ignored.push(options.effortParam);
  const target = upstreamTargetFor(context, entry);
  // A protocol without chat cannot serve text at all: a configuration fault, answered as an unconfigured model.
  const upstream = protocolAdapters[target.protocol].chat;
  if (upstream === undefined) throw GatewayError.modelNotConfigured(entry.id);
  return {
    entry,
    settings,
    chat,
    ignored,
    call: upstream.request(target, chat, settings),
    upstream,
  };
}

/** The non-streaming upstream call and its completion; every failure is the GatewayError docs/design.md maps it to. */
export async function sendChatCompletion(
  context: HandlerContext,
  input: HandlerInput,
  plan: TextGenerationPlan,
): Promise<{ completion: UpstreamChatCompletion; endpoint: string }> {
  const answer = await sendUpstreamJson(context, input, plan.entry.id, plan.call);
  return { completion: plan.upstream.read(answer.body), endpoint: answer.endpoint };
}

/**
 * The streaming upstream call, up to its first event. A failure before the first event is still an
 * HTTP error (docs/design.md: 504 before any byte sent); after it, the stream transforms end in-protocol.
 */
export async function sendChatStream(
  context: HandlerContext,
  input: HandlerInput,
  plan: TextGenerationPlan,
): Promise<{ events: TakeableIterator<SseEvent>; endpoint: string }> {
  const response = await context.upstream.send({
    modelId: plan.entry.id,
    path: plan.call.path,
    body: plan.call.body,
    stream: true,
    signal: input.signal,
    requestId: input.requestId,
  });
  const failed = response.status < 200 || response.status > 299;
  if (response.kind === 'stream') {
    if (!failed) return { events: response.events, endpoint: response.endpoint };
    await response.events.return?.();
    throw mapUpstreamStatus(response.status, undefined, response.headers['retry-after']);
  }
  if (failed)
    throw mapUpstreamStatus(response.status, response.body, response.headers['retry-after']);
  // A 2xx JSON answer to a stream request: an error envelope sent with 200, or a fault.
  plan.upstream.read(response.body);
  throw GatewayError.upstreamFailed(
    'The model server answered with JSON where a stream was expected.',
  );
}
