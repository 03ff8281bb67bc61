import { sseData, sseDone } from '../http/sse-writer.js';
import type { Pacer } from '../http/pacer.js';
import { VllmError } from '../http/vllm-error.js';
import type { DecodeOutcome, DecodeStep } from './decode-choice.js';
import { ToolCallDeltas } from './tool-call-deltas.js';
import { isCompleteToolCall } from './tool-call-reply.js';
import type { ToolCallPlan } from './tool-call-reply.js';

export interface ChatStreamContext {
  id: string;
  created: number;
  model: string;
  promptTokenIds: number[];
  includeUsage: boolean;
  continuousUsage: boolean;
  returnTokenIds: boolean;
  /** As in the non-streamed body: usage carries completion_tokens_details.reasoning_tokens only when reasoning is produced. */
  reasoningEnabled: boolean;
  /** Per choice: the tool call its text is, streamed as tool-call deltas instead of content. */
  toolCalls: ReadonlyArray<ToolCallPlan | undefined>;
}

interface ChoiceState {
  index: number;
  generator: Generator<DecodeStep, DecodeOutcome, undefined>;
  next: IteratorResult<DecodeStep, DecodeOutcome>;
  tokens: number;
  reasoningTokens: number;
  finished: boolean;
  toolCall: { plan: ToolCallPlan; deltas: ToolCallDeltas } | undefined;
}

/**
 * vLLM's chunk stream, pulled one engine step at a time so a slow client applies backpressure and a paced
 * stream only computes what it sends: role chunk, one chunk per released delta, the finishing chunk with
 * finish_reason and stop_reason, the usage chunk with `choices: []` when asked, then `data: [DONE]`.
 */
export function createChatStream(
  context: ChatStreamContext,
  generators: Array<Generator<DecodeStep, DecodeOutcome, undefined>>,
  pacer: Pacer,
  abort: () => void,
): ReadableStream<Uint8Array> {
  let choices: ChoiceState[] = [];
  let started = false;
  let completionTokens = 0;
  let reasoningTokens = 0;
  const base = {
    id: context.id,
    object: 'chat.completion.chunk',
    created: context.created,
    model: context.model,
  };

  const chunk = (
    choice: ChoiceState,
    delta: Record<string, unknown>,
    finish?: DecodeOutcome,
  ): Record<string, unknown> => {
    const toolCalled =
      finish !== undefined &&
      choice.toolCall !== undefined &&
      isCompleteToolCall(choice.toolCall.plan, finish);
    const entry: Record<string, unknown> = {
      index: choice.index,
      delta,
      logprobs: null,
      finish_reason: toolCalled ? 'tool_calls' : (finish?.finishReason ?? null),
    };
    if (finish !== undefined) entry.stop_reason = finish.stopReason;
    const body: Record<string, unknown> = { ...base, choices: [entry] };
    if (context.continuousUsage) body.usage = usage(choice.tokens, choice.reasoningTokens);
    return body;
  };
  const usage = (completion: number, reasoning: number): Record<string, unknown> => {
    const counts: Record<string, unknown> = {
      prompt_tokens: context.promptTokenIds.length,
      completion_tokens: completion,
      total_tokens: context.promptTokenIds.length + completion,
    };
    if (context.reasoningEnabled)
      counts.completion_tokens_details = { reasoning_tokens: reasoning };
    return counts;
  };

  /** One engine step: every unfinished choice advances one token. Returns false once the stream is over. */
  const round = (enqueue: (bytes: Uint8Array) => void): boolean => {
    if (!started) {
      started = true;
      choices = generators.map((generator, index) => {
        const plan = context.toolCalls[index];
        const toolCall =
          plan === undefined ? undefined : { plan, deltas: new ToolCallDeltas(plan) };
        return {
          index,
          generator,
          next: generator.next(),
          tokens: 0,
          reasoningTokens: 0,
          finished: false,
          toolCall,
        };
      });
      for (const choice of choices) {
        const first = chunk(choice, { role: 'assistant', content: '' });
        if (context.returnTokenIds) first.prompt_token_ids = context.promptTokenIds;
        enqueue(sseData(first));
      }
    }
    for (const choice of choices) {
      if (choice.finished) continue;
      const current = choice.next;
      if (current.done === true) throw VllmError.internal('generation ended without a token');
      choice.tokens += 1;
      if (current.value.channel === 'reasoning') choice.reasoningTokens += 1;
      choice.next = choice.generator.next();
      const delta: Record<string, unknown> =
        current.value.delta === '' ? {} : { [current.value.channel]: current.value.delta };
      if (choice.next.done === true) {
        const outcome = choice.next.value;
        choice.finished = true;
        choice.tokens = outcome.tokenIds.length;
        choice.reasoningTokens = outcome.reasoningTokens;
        completionTokens += outcome.tokenIds.length;
        reasoningTokens += outcome.reasoningTokens;
        appendTail(delta, outcome);
        const deltas = splitDelta(choice, delta);
        const last = deltas.pop() ?? {};
        for (const each of deltas) enqueue(sseData(chunk(choice, each)));
        enqueue(sseData(chunk(choice, last, outcome)));
      } else {
        for (const each of splitDelta(choice, delta)) enqueue(sseData(chunk(choice, each)));
      }
    }
    if (!choices.every((choice) => choice.finished)) return true;
    if (context.includeUsage)
      enqueue(sseData({ ...base, choices: [], usage: usage(completionTokens, reasoningTokens) }));
    enqueue(sseDone);
    return false;
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let sent = false;
        const enqueue = (bytes: Uint8Array): void => {
          sent = true;
          controller.enqueue(bytes);
        };
        try {
          // The stream does not call pull again after one that enqueued nothing (a held-back token), so step on.
          while (!sent) {
            if (!(await pacer.step()) || !round(enqueue)) {
              controller.close();
              return;
            }
          }
        } catch (error) {
          // After the 200, vLLM reports a failure as one error event and still ends with [DONE].
          const failure =
            error instanceof VllmError
              ? error
              : VllmError.internal(error instanceof Error ? error.message : 'generation failed');
          controller.enqueue(sseData(failure.toBody()));
          controller.enqueue(sseDone);
          controller.close();
        }
      },
      cancel() {
        abort();
      },
    },
    { highWaterMark: 0 },
  );
}

/** A choice's delta as the chunks it becomes: one, or for a tool call its reasoning and then its tool-call deltas. */
function splitDelta(
  choice: ChoiceState,
  delta: Record<string, unknown>,
): Array<Record<string, unknown>> {
  if (choice.toolCall === undefined) return Object.keys(delta).length === 0 ? [] : [delta];
  const { content, ...rest } = delta;
  const reasoning = Object.keys(rest).length === 0 ? [] : [rest];
  return typeof content === 'string'
    ? [...reasoning, ...choice.toolCall.deltas.push(content)]
    : reasoning;
}

function appendTail(delta: Record<string, unknown>, outcome: DecodeOutcome): void {
  for (const channel of ['reasoning', 'content'] as const) {
    const tail = outcome.tail[channel];
    if (tail === '') continue;
    const existing = delta[channel];
    delta[channel] = (typeof existing === 'string' ? existing : '') + tail;
  }
}
