import { describe, expect, it } from 'vitest';
import { holdToContract } from './hold-to-contract.js';

const origin = 'http://127.0.0.1:1';

function json(body: unknown, status = 200, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...extra },
  });
}

function sse(events: string[]): Response {
  return new Response(events.map((data) => `data: ${data}\n\n`).join(''), {
    headers: { 'content-type': 'text/event-stream' },
  });
}

const chunk = {
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }],
};

describe('holdToContract', () => {
  it('passes an answer of the route’s shape through unchanged', async () => {
    const response = await holdToContract('GET', `${origin}/healthz`, json({ status: 'ok' }));
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('refuses a body of another shape, and a field the contract does not name', async () => {
    await expect(
      holdToContract('GET', `${origin}/healthz`, json({ status: 'fine' })),
    ).rejects.toThrow(/status/);
    await expect(
      holdToContract('GET', `${origin}/healthz`, json({ status: 'ok', uptime: 3 })),
    ).rejects.toThrow(/does not name: uptime/);
    await expect(
      holdToContract('GET', `${origin}/v1/models/x`, json({ object: 'list', data: [] })),
    ).rejects.toThrow(/breaks its contract/);
  });

  it('holds errors to the route’s envelope: native, or compat under /compat/', async () => {
    const native = {
      error: { message: 'm', type: 'invalid_request_error', param: null, code: 'c' },
    };
    await expect(
      holdToContract('POST', `${origin}/v1/embeddings`, json(native, 400)),
    ).resolves.toBeInstanceOf(Response);
    await expect(
      holdToContract('POST', `${origin}/compat/v2/rerank`, json(native, 400)),
    ).rejects.toThrow(/breaks its contract/);
    await expect(
      holdToContract('POST', `${origin}/compat/v2/rerank`, json({ id: 'r', message: 'm' }, 400)),
    ).resolves.toBeInstanceOf(Response);
    await expect(
      holdToContract('GET', `${origin}/no/such/path`, json({ message: 'm' }, 404)),
    ).rejects.toThrow(/breaks its contract/);
  });

  it('checks each streamed event as it is read, erroring the stream at the first that breaks the contract', async () => {
    const good = await holdToContract(
      'POST',
      `${origin}/v1/chat/completions`,
      sse([JSON.stringify(chunk), '[DONE]']),
    );
    expect(await good.text()).toContain('[DONE]');
    const bad = await holdToContract(
      'POST',
      `${origin}/v1/chat/completions`,
      sse([JSON.stringify({ ...chunk, object: 'chat.completion' }), '[DONE]']),
    );
    await expect(bad.text()).rejects.toThrow(/object/);
    const events = await holdToContract(
      'POST',
      `${origin}/v1/responses`,
      sse([
        JSON.stringify({
          type: 'response.output_text.delta',
          sequence_number: 0,
          item_id: 'msg_1',
          output_index: 0,
          content_index: 0,
          delta: 'x',
        }),
      ]),
    );
    await expect(events.text()).rejects.toThrow(/logprobs/);
  });

  it('refuses a stream from a route that promises none', async () => {
    await expect(holdToContract('POST', `${origin}/v1/embeddings`, sse(['{}']))).rejects.toThrow(
      /no event schema/,
    );
  });
});
