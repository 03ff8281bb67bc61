import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countingIds } from '../handlers/test-ports.js';
import { scriptedEvents, vllmStreamEvents } from '../handlers/text-test-ports.js';
import type { SseEvent } from '../sse/sse-event.js';
import { chatStreamToClientStream } from './chat-stream-transform.js';
import {
  matchPlainContentChunk,
  plainChunkContent,
  rewritePlainChunk,
} from './plain-content-chunk.js';
import type { ResponsesEcho } from './responses-object.js';
import { chatStreamToResponsesEvents } from './responses-stream-transform.js';

// The stream fast path against the plain reference it replaces (JSON.parse, set id and model,
// JSON.stringify): for any chunk the fast path takes, the bytes and values must be the reference's.

const idJson = JSON.stringify('chatcmpl-00ff');
const modelJson = JSON.stringify('catalogue-model');

function referenceRewrite(text: string): string {
  const chunk = JSON.parse(text) as Record<string, unknown>;
  chunk.id = 'chatcmpl-00ff';
  chunk.model = 'catalogue-model';
  return JSON.stringify(chunk);
}

function referenceContent(text: string): unknown {
  const chunk = JSON.parse(text) as { choices: { delta: { content: unknown } }[] };
  return chunk.choices[0]?.delta.content;
}

// Text that JSON writes with escapes, lone surrogates, astral characters and field-like text.
const awkward = fc.constantFrom(
  'a',
  ' ',
  '"',
  '\\',
  '/',
  '\n',
  '\t',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u2028',
  '\ud800',
  '\udfff',
  '😀',
  'é',
  '","model":"x"',
  '}]}',
);
const contentText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: awkward, maxLength: 20 }),
);

// vLLM's compact layout of a content delta, as pydantic writes it.
const vllmChunk = fc
  .record({
    id: fc.string({ unit: 'grapheme-ascii', maxLength: 30 }),
    created: fc.nat(),
    model: fc.string({ unit: 'grapheme-ascii', maxLength: 30 }),
    index: fc.nat({ max: 8 }),
    content: contentText,
  })
  .map(({ id, created, model, index, content }) =>
    JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index, delta: { content }, logprobs: null, finish_reason: null }],
    }),
  );

// Characters that matter to JSON's grammar, to put in place of one character of a chunk.
const replacement = fc.constantFrom(
  '"',
  '\\',
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  ' ',
  '0',
  'u',
  '\n',
  'x',
);

describe('the plain content chunk path against parse + stringify', () => {
  it('takes every chunk in vLLM layout and writes and reads it as the reference does', () => {
    fc.assert(
      fc.property(vllmChunk, (text) => {
        const chunk = matchPlainContentChunk(text);
        const hasQuoteOrEscape = /"id":"[^"]*\\|"model":"[^"]*\\/.test(text);
        if (chunk === undefined) return hasQuoteOrEscape;
        expect(rewritePlainChunk(text, chunk, idJson, modelJson)).toBe(referenceRewrite(text));
        expect(plainChunkContent(text, chunk)).toBe(referenceContent(text));
        return true;
      }),
      { numRuns: 2000 },
    );
  });

  it('takes a chunk with one character changed only when JSON.parse does, with the same result', () => {
    fc.assert(
      fc.property(vllmChunk, fc.nat(), replacement, (text, at, character) => {
        const place = at % text.length;
        const changed = `${text.slice(0, place)}${character}${text.slice(place + 1)}`;
        const chunk = matchPlainContentChunk(changed);
        if (chunk === undefined) return;
        expect(() => JSON.parse(changed)).not.toThrow();
        expect(rewritePlainChunk(changed, chunk, idJson, modelJson)).toBe(
          referenceRewrite(changed),
        );
        expect(plainChunkContent(changed, chunk)).toBe(referenceContent(changed));
      }),
      { numRuns: 3000 },
    );
  });
});

// The same stream twice: in vLLM's layout (the fast path takes its content deltas) and with one blank
// after each chunk's opening brace (no longer the layout: every chunk goes through JSON.parse).
function parsedLayout(events: readonly SseEvent[]): SseEvent[] {
  return events.map((event) =>
    event.data.startsWith('{') ? { data: `{ ${event.data.slice(1)}` } : event,
  );
}

async function texts(events: AsyncIterable<SseEvent>): Promise<string[]> {
  const out: string[] = [];
  for await (const event of events) out.push(`${event.event ?? ''}|${event.data}`);
  return out;
}

const echo: ResponsesEcho = {
  instructions: null,
  max_output_tokens: null,
  max_tool_calls: null,
  metadata: null,
  parallel_tool_calls: true,
  reasoning: null,
  service_tier: 'auto',
  temperature: null,
  text: null,
  tool_choice: 'auto',
  tools: [],
  top_logprobs: null,
  top_p: null,
  truncation: 'disabled',
  user: null,
};

describe('the stream transforms with and without the plain content chunk path', () => {
  const pieces = fc.array(contentText, { maxLength: 12 });

  it('give the same chat stream to the client', async () => {
    await fc.assert(
      fc.asyncProperty(pieces, async (contents) => {
        const upstream = vllmStreamEvents(contents);
        const options = {
          model: 'alpha36-35b-a3b-thinking-general',
          id: 'chatcmpl-00ff00ff00ff00ff00ff00ff00ff00ff',
          clearThinking: false,
          includeUsage: true,
          meta: {},
        };
        const fast = await texts(chatStreamToClientStream(scriptedEvents(upstream), options));
        const reference = await texts(
          chatStreamToClientStream(scriptedEvents(parsedLayout(upstream)), {
            ...options,
            meta: {},
          }),
        );
        expect(fast).toEqual(reference);
      }),
      { numRuns: 300 },
    );
  });

  it('give the same responses events to the client', async () => {
    await fc.assert(
      fc.asyncProperty(pieces, async (contents) => {
        const upstream = vllmStreamEvents(contents);
        const options = () => ({
          model: 'beta53-flash-agent',
          clearThinking: false,
          ids: countingIds(),
          createdAt: 1_767_225_600,
          echo,
          logprobs: false,
          meta: {},
        });
        const fast = await texts(chatStreamToResponsesEvents(scriptedEvents(upstream), options()));
        const reference = await texts(
          chatStreamToResponsesEvents(scriptedEvents(parsedLayout(upstream)), options()),
        );
        expect(fast).toEqual(reference);
      }),
      { numRuns: 300 },
    );
  });
});
