import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../errors/upstream-error.js';
import { countingIds } from '../handlers/test-ports.js';
import {
  chunkEvent,
  doneData,
  scriptedEvents,
  usageEvent,
  vllmStreamEvents,
} from '../handlers/text-test-ports.js';
import type { SseEvent } from '../sse/sse-event.js';
import type { TokenCounts } from './chat-stream-events.js';
import { chatStreamToMessagesEvents } from './messages-stream-transform.js';

type Payload = Record<string, unknown> & { type: string };

async function run(
  upstream: readonly SseEvent[],
  options: { clearThinking?: boolean; failWith?: unknown; stopSequences?: string[] } = {},
): Promise<{ events: Payload[]; meta: TokenCounts; returned: boolean }> {
  const source = scriptedEvents(upstream, options.failWith);
  const meta: TokenCounts = {};
  const events: Payload[] = [];
  for await (const event of chatStreamToMessagesEvents(source, {
    model: 'general-std',
    clearThinking: options.clearThinking ?? false,
    ids: countingIds(),
    stopSequences: options.stopSequences,
    meta,
  })) {
    const payload = JSON.parse(event.data) as Payload;
    // The Messages API names each event by its type on the `event:` line.
    expect(event.event).toBe(payload.type);
    events.push(payload);
  }
  return { events, meta, returned: source.returned };
}

/** The text of each content block, rebuilt from the deltas as the Anthropic SDK does. */
function blocks(events: readonly Payload[]): Array<{ type: string; text: string }> {
  const built: Array<{ type: string; text: string }> = [];
  for (const event of events) {
    if (event.type === 'content_block_start') {
      expect(event.index).toBe(built.length);
      built.push({ type: (event.content_block as { type: string }).type, text: '' });
    }
    if (event.type === 'content_block_delta') {
      const delta = event.delta as Record<string, string>;
      const block = built[event.index as number] as { text: string };
      block.text += delta.text ?? delta.thinking ?? delta.partial_json ?? '';
    }
  }
  return built;
}

describe('chatStreamToMessagesEvents', () => {
  it('sends the sequence clients parse: message_start, ping, a text block, message_delta, message_stop', async () => {
    const { events, meta } = await run(vllmStreamEvents(['Hel', 'lo']));
    expect(events.map((event) => event.type)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const start = events[0]?.message as Record<string, unknown>;
    expect(start).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [],
      stop_reason: null,
    });
    expect(blocks(events)).toEqual([{ type: 'text', text: 'Hello' }]);
    const delta = events.at(-2) as Payload;
    expect(delta.delta).toEqual({ stop_reason: 'end_turn', stop_sequence: null });
    expect(delta.usage).toMatchObject({
      input_tokens: expect.any(Number),
      output_tokens: expect.any(Number),
    });
    expect(meta.outputTokens).toBeGreaterThan(0);
  });

  it('streams thinking as its own block before the text, unless the model hides it', async () => {
    const upstream = vllmStreamEvents(['Four.'], { reasoning: ['Two ', 'and two.'] });
    expect(blocks((await run(upstream)).events)).toEqual([
      { type: 'thinking', text: 'Two and two.' },
      { type: 'text', text: 'Four.' },
    ]);
    expect(blocks((await run(upstream, { clearThinking: true })).events)).toEqual([
      { type: 'text', text: 'Four.' },
    ]);
  });

  it('streams tool calls as tool_use blocks with input_json_delta, stop_reason tool_use', async () => {
    const { events } = await run([
      chunkEvent({ role: 'assistant', content: '' }),
      chunkEvent({
        tool_calls: [
          {
            index: 0,
            id: 'call_1',
            type: 'function',
            function: { name: 'weather', arguments: '' },
          },
        ],
      }),
      chunkEvent({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
      chunkEvent({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
      chunkEvent({}, 'tool_calls'),
      usageEvent(30, 12),
      doneData,
    ]);
    const start = events.find((event) => event.type === 'content_block_start');
    expect(start?.content_block).toEqual({
      type: 'tool_use',
      id: 'call_1',
      name: 'weather',
      input: {},
    });
    expect(blocks(events)).toEqual([{ type: 'tool_use', text: '{"city":"Paris"}' }]);
    expect(events.at(-2)?.delta).toEqual({ stop_reason: 'tool_use', stop_sequence: null });
  });

  it('ends a failure after the first byte with one error event, and stops reading the upstream', async () => {
    const { events } = await run(
      [chunkEvent({ role: 'assistant', content: '' }), chunkEvent({ content: 'Hi' })],
      { failWith: new UpstreamError({ kind: 'reset', phase: 'body', message: 'socket hang up' }) },
    );
    const last = events.at(-1) as Payload;
    expect(last.type).toBe('error');
    expect(last.error).toMatchObject({ type: 'api_error', message: expect.any(String) });
    expect(events.some((event) => event.type === 'message_stop')).toBe(false);
  });

  it('ends a stream cut short with an error event too', async () => {
    const { events } = await run([chunkEvent({ content: 'Hi' })]);
    expect(events.at(-1)?.type).toBe('error');
  });
});
