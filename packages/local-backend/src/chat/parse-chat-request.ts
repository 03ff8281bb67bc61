import { BodyFields } from '../http/body-fields.js';
import { VllmError } from '../http/vllm-error.js';
import { parseChatTools } from './parse-chat-tools.js';
import type { ChatTools } from './parse-chat-tools.js';
import { parseJsonTarget } from './parse-json-target.js';
import type { JsonTarget } from './parse-json-target.js';
import { parsePromptMessages } from './prompt-messages.js';
import type { PromptMessage } from './prompt-messages.js';

export interface ChatRequest {
  model: string | undefined;
  messages: PromptMessage[];
  stream: boolean;
  includeUsage: boolean;
  continuousUsage: boolean;
  maxTokens: number | undefined;
  minTokens: number;
  stop: string[];
  stopTokenIds: number[];
  ignoreEos: boolean;
  n: number;
  seed: number | undefined;
  includeStopStrInOutput: boolean;
  badWords: string[];
  /** Reasoning is produced only when the template is told to think and not to clear the thinking. */
  reasoningEnabled: boolean;
  reasoningEffort: string | undefined;
  returnTokenIds: boolean;
  requestId: string | undefined;
  tools: ChatTools;
  /** `response_format` / `structured_outputs`: the content must be JSON (or a fixed choice). */
  jsonTarget: JsonTarget | undefined;
}

/** Reads a vLLM chat request; unknown keys are ignored as vLLM ignores them (pydantic extra="allow"). */
export async function parseChatRequest(body: Record<string, unknown>): Promise<ChatRequest> {
  const fields = new BodyFields(body);
  const stream = fields.boolean('stream', false);
  const streamOptions = fields.object('stream_options');
  // vLLM: stream_options is only allowed together with stream=true.
  if (streamOptions !== undefined && !stream)
    throw VllmError.badRequest(
      'Stream options can only be defined when `stream=True`.',
      'stream_options',
    );
  const options = new BodyFields(streamOptions ?? {});
  const includeUsage = options.boolean('include_usage', false);

  const maxCompletionTokens = fields.integer('max_completion_tokens');
  const maxTokens = maxCompletionTokens ?? fields.integer('max_tokens');
  if (maxTokens !== undefined && maxTokens < 1)
    throw VllmError.badRequest(`max_tokens must be at least 1, got ${maxTokens}.`, 'max_tokens');
  const minTokens = fields.integer('min_tokens') ?? 0;
  if (minTokens < 0)
    throw VllmError.badRequest(
      `min_tokens must be greater than or equal to 0, got ${minTokens}.`,
      'min_tokens',
    );
  if (maxTokens !== undefined && minTokens > maxTokens) {
    throw VllmError.badRequest(
      `min_tokens must be less than or equal to max_tokens=${maxTokens}, got ${minTokens}.`,
      'min_tokens',
    );
  }
  const n = fields.integer('n') ?? 1;
  if (n < 1) throw VllmError.badRequest(`n must be at least 1, got ${n}.`, 'n');
  if (n > 16)
    throw VllmError.badRequest(`n must be at most 16 on the local backend, got ${n}.`, 'n');

  const kwargs = new BodyFields(fields.object('chat_template_kwargs') ?? {});
  const enableThinking = kwargs.raw('enable_thinking') === true;
  const clearThinking = kwargs.raw('clear_thinking') === true;
  const effort = kwargs.raw('reasoning_effort') ?? fields.raw('reasoning_effort');
  if (effort !== undefined && effort !== null && typeof effort !== 'string') {
    throw VllmError.validation(
      '1 validation error: body.reasoning_effort: Input should be a valid string',
      'body.reasoning_effort',
    );
  }

  return {
    model: fields.string('model'),
    messages: await parsePromptMessages(requireMessages(body)),
    stream,
    includeUsage,
    continuousUsage: includeUsage && options.boolean('continuous_usage_stats', false),
    maxTokens,
    minTokens,
    stop: fields.stringOrList('stop'),
    stopTokenIds: fields.integerList('stop_token_ids'),
    ignoreEos: fields.boolean('ignore_eos', false),
    n,
    seed: fields.integer('seed'),
    includeStopStrInOutput: fields.boolean('include_stop_str_in_output', false),
    badWords: fields.stringList('bad_words'),
    reasoningEnabled: enableThinking && !clearThinking,
    reasoningEffort: typeof effort === 'string' ? effort : undefined,
    returnTokenIds: fields.boolean('return_token_ids', false),
    requestId: fields.string('request_id'),
    tools: parseChatTools(body),
    jsonTarget: parseJsonTarget(body),
  };
}

function requireMessages(body: Record<string, unknown>): unknown {
  if (body.messages === undefined)
    throw VllmError.validation(
      '1 validation error: body.messages: Field required',
      'body.messages',
    );
  return body.messages;
}
