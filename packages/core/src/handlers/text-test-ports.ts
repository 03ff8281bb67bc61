/**
 * Test helpers for the text-generation vertical, beside the shared `test-ports.ts`: vLLM-shaped chat
 * bodies and chunk streams and readers for the SSE bytes a handler returns.
 */
import type { UpstreamTarget, UpstreamStreamResponse } from '../ports/ports.js';
import type { SseEvent } from '../sse/sse-event.js';
import { createSseParser } from '../sse/create-sse-parser.js';
import { AdmissionGate } from '../admission/admission-gate.js';
import type { EventStreamResult } from '../ports/handler-types.js';
import { RequestFinaliser } from '../http/request-finaliser.js';
import { StatusBoard } from '../status/status-board.js';

/** Every text model of the spec's catalogue, served by one openai-protocol upstream as `served-<id>`. */
export function textTargets(ids: readonly string[]): Record<string, UpstreamTarget> {
  return Object.fromEntries(
    ids.map((id) => [id, { protocol: 'openai' as const, model: `served-${id}` }]),
  );
}

/** A non-streaming vLLM chat completion as `model_dump()` writes it (every field, nulls included). */
export function vllmCompletion(
  options: {
    content?: string | null;
    reasoning?: string | null;
    reasoningField?: 'reasoning' | 'reasoning_content';
    finishReason?: string;
    usage?: { prompt: number; completion: number; cached?: number };
    /** vLLM's tool calls: `{id, type: "function", function: {name, arguments}}`. */
    toolCalls?: ReadonlyArray<{ id: string; name: string; arguments: string }>;
    logprobs?: unknown;
  } = {},
) {
  const usage = options.usage ?? { prompt: 11, completion: 7 };
  return {
    id: 'chatcmpl-abc123',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'served-name',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: options.content === undefined ? 'Hello there.' : options.content,
          refusal: null,
          annotations: null,
          audio: null,
          function_call: null,
          tool_calls: (options.toolCalls ?? []).map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.arguments },
          })),
          [options.reasoningField ?? 'reasoning']: options.reasoning ?? null,
        },
        logprobs: options.logprobs ?? null,
        finish_reason: options.finishReason ?? 'stop',
        stop_reason: 151_645,
        token_ids: null,
        routed_experts: 'AAAA',
      },
    ],
    service_tier: null,
    system_fingerprint: 'fp-build-1',
    usage: {
      prompt_tokens: usage.prompt,
      total_tokens: usage.prompt + usage.completion,
      completion_tokens: usage.completion,
      prompt_tokens_details: usage.cached === undefined ? null : { cached_tokens: usage.cached },
    },
    prompt_logprobs: null,
    prompt_token_ids: null,
    prompt_text: null,
    kv_transfer_params: null,
    metrics: { queue_ms: 3 },
  };
}

const chunkBase = {
  id: 'chatcmpl-s1',
  object: 'chat.completion.chunk',
  created: 1_700_000_000,
  model: 'served-name',
};

/** One `data:` event of a vLLM chunk (exclude_unset: absent keys stay absent). */
export function chunkEvent(
  delta: Record<string, unknown>,
  finishReason: string | null = null,
): SseEvent {
  const choice: Record<string, unknown> = {
    index: 0,
    delta,
    logprobs: null,
    finish_reason: finishReason,
  };
  if (finishReason !== null) choice.stop_reason = null;
  return { data: JSON.stringify({ ...chunkBase, choices: [choice] }) };
}

export function usageEvent(prompt: number, completion: number): SseEvent {
  return {
    data: JSON.stringify({
      ...chunkBase,
      choices: [],
      usage: {
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: prompt + completion,
      },
    }),
  };
}

export const doneData: SseEvent = { data: '[DONE]' };

/** A vLLM stream of a plain answer: role chunk, the content pieces, a finishing chunk, usage, [DONE]. */
export function vllmStreamEvents(
  pieces: readonly string[],
  options: { reasoning?: readonly string[]; reasoningField?: string; finishReason?: string } = {},
): SseEvent[] {
  return [
    chunkEvent({ role: 'assistant', content: '' }),
    ...(options.reasoning ?? []).map((piece) =>
      chunkEvent({ [options.reasoningField ?? 'reasoning']: piece }),
    ),
    ...pieces.map((piece) => chunkEvent({ content: piece })),
    chunkEvent({}, options.finishReason ?? 'stop'),
    usageEvent(11, pieces.length),
    doneData,
  ];
}

export interface ScriptedEvents extends AsyncIterableIterator<SseEvent> {
  /** True once return() was called (the consumer stopped reading: the upstream call would be aborted). */
  readonly returned: boolean;
}

/** Events that end after the list, or throw `failWith` after it; records whether return() was called. */
export function scriptedEvents(events: readonly SseEvent[], failWith?: unknown): ScriptedEvents {
  let index = 0;
  let returned = false;
  const iterator: ScriptedEvents = {
    get returned() {
      return returned;
    },
    async next() {
      if (returned) return { done: true, value: undefined };
      const event = events[index];
      index += 1;
      if (event !== undefined) return { done: false, value: event };
      if (failWith !== undefined) throw failWith;
      return { done: true, value: undefined };
    },
    async return() {
      returned = true;
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

export interface ScriptedReads extends ScriptedEvents {
  take(): SseEvent | undefined;
  /** Times next() was awaited (network reads), and events handed out by take(). */
  readonly waits: number;
  readonly taken: number;
}

/**
 * Events as an upstream port hands them out (TakeableIterator): the first read is in already (the port
 * read it for the first event), `take()` gives the events of the current read without a wait, and
 * `next()` waits for the next read when they are taken. Ends after the reads, or throws `failWith`
 * from the next() after them.
 */
export function scriptedReads(
  reads: ReadonlyArray<readonly SseEvent[]>,
  failWith?: unknown,
): ScriptedReads {
  let read = 0;
  let index = 0;
  let returned = false;
  let waits = 0;
  let taken = 0;
  const fromRead = (): SseEvent | undefined => {
    if (returned) return undefined;
    const event = reads[read]?.[index];
    if (event !== undefined) index += 1;
    return event;
  };
  const iterator: ScriptedReads = {
    get returned() {
      return returned;
    },
    get waits() {
      return waits;
    },
    get taken() {
      return taken;
    },
    take() {
      const event = fromRead();
      if (event !== undefined) taken += 1;
      return event;
    },
    async next() {
      if (returned) return { done: true, value: undefined };
      // A read left partly untaken is handed out first, as the upstream's reader does.
      const queued = fromRead();
      if (queued !== undefined) return { done: false, value: queued };
      waits += 1;
      await new Promise((resolve) => setTimeout(resolve, 0));
      for (read += 1, index = 0; read < reads.length; read += 1, index = 0) {
        const event = reads[read]?.[0];
        if (event !== undefined) {
          index = 1;
          return { done: false, value: event };
        }
      }
      if (failWith !== undefined) throw failWith;
      return { done: true, value: undefined };
    },
    async return() {
      returned = true;
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

export function streamResponse(
  events: AsyncIterableIterator<SseEvent>,
  status = 200,
): UpstreamStreamResponse {
  return {
    kind: 'stream',
    status,
    headers: { 'content-type': 'text/event-stream' },
    events,
    endpoint: 'fake-1',
  };
}

/** The bytes a client reads for a handler's stream answer: encoded and ended by a request finaliser, as dispatch does. */
export function clientStream(result: EventStreamResult): ReadableStream<Uint8Array> {
  const gateway = {
    admission: new AdmissionGate(1),
    status: new StatusBoard(0),
    deps: {
      metrics: { record: () => undefined },
      clock: { now: () => Date.now() },
      config: { timeouts: { keepaliveMs: 0 }, prices: {} },
    },
  };
  return new RequestFinaliser(
    gateway,
    'req-handler-test',
    'handler-test',
    Date.now(),
    false,
    undefined,
    undefined,
  ).stream(result);
}

/** Reads a byte stream to its end as text. */
export async function readText(stream: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
  }
}

/** Splits SSE text into events with the parser the gateway reads upstream streams with. */
export function parseSseText(text: string): SseEvent[] {
  return createSseParser().push(new TextEncoder().encode(text));
}
