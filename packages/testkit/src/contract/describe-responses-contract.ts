import { describe, expect, it } from 'vitest';
import { readSse } from '../read-sse.js';
import { asArray, asRecord, type ContractClient } from './contract-client.js';
import { expectNativeError } from './expect-envelopes.js';
import { pngDataUrl } from './test-images.js';

function expectInteger(value: unknown): void {
  expect(Number.isInteger(value), String(value)).toBe(true);
}

const nullFields = [
  'incomplete_details',
  'input_messages',
  'instructions',
  'max_output_tokens',
  'max_tool_calls',
  'metadata',
  'output_messages',
  'previous_response_id',
  'prompt',
  'reasoning',
  'temperature',
  'text',
  'top_logprobs',
  'top_p',
  'user',
] as const;

/** Spec "Response object of the responses endpoint, text form", field by field. */
/**
 * `streamed`: the object of a response.completed event, whose usage has the completion API's fields
 * only (every detail a number: the OpenAI Agents SDK refuses anything else there).
 */
export function expectTextResponse(
  value: unknown,
  model: string,
  echoed: Readonly<Record<string, unknown>> = {},
  streamed = false,
): Record<string, unknown> {
  const body = asRecord(value);
  expect(body.id).toMatch(/^resp_\d+$/);
  expect(body.object).toBe('response');
  expectInteger(body.created_at);
  expect(body.model).toBe(model);
  expect(body.status).toBe('completed');
  expect(body.background).toBe(false);
  expect(body.parallel_tool_calls).toBe(true);
  expect(body.service_tier).toBe('auto');
  expect(body.tool_choice).toBe('auto');
  expect(body.tools).toEqual([]);
  expect(body.truncation).toBe('disabled');
  // Null in the spec's shown response, which set none of them; a field the request set may echo it.
  for (const field of nullFields)
    expect(body[field], field).toBe(field in echoed ? echoed[field] : null);
  const output = asArray(body.output).map(asRecord);
  const messages = output.filter((item) => item.type === 'message');
  expect(messages).toHaveLength(1);
  const message = messages[0] as Record<string, unknown>;
  expect(message.id).toMatch(/^msg_\d+$/);
  expect(message.role).toBe('assistant');
  expect(message.status).toBe('completed');
  expect(message.phase).toBeNull();
  const parts = asArray(message.content).map(asRecord);
  expect(parts.length).toBeGreaterThan(0);
  for (const part of parts) {
    expect(part.type).toBe('output_text');
    expect(typeof part.text).toBe('string');
    expect(part.annotations).toEqual([]);
    expect(part.logprobs).toBeNull();
  }
  expect(body.output_text).toBe(parts.map((part) => part.text).join(''));
  expect((body.output_text as string).length).toBeGreaterThan(0);
  const usage = asRecord(body.usage);
  expectInteger(usage.input_tokens);
  expectInteger(usage.output_tokens);
  expect(usage.total_tokens).toBe((usage.input_tokens as number) + (usage.output_tokens as number));
  const inputDetails = asRecord(usage.input_tokens_details);
  expectInteger(inputDetails.cached_tokens);
  const outputDetails = asRecord(usage.output_tokens_details);
  expectInteger(outputDetails.reasoning_tokens);
  if (streamed) {
    for (const details of [inputDetails, outputDetails])
      for (const [field, count] of Object.entries(details))
        expect(typeof count, field).toBe('number');
    return body;
  }
  expect(Array.isArray(inputDetails.cached_tokens_per_turn)).toBe(true);
  expect(Array.isArray(inputDetails.input_tokens_per_turn)).toBe(true);
  expect(Array.isArray(outputDetails.output_tokens_per_turn)).toBe(true);
  expectInteger(outputDetails.tool_output_tokens);
  expect(Array.isArray(outputDetails.tool_output_tokens_per_turn)).toBe(true);
  return body;
}

const body = (value: unknown): Record<string, unknown> => asRecord(value);

export function describeResponsesContract(client: () => ContractClient): void {
  describe('POST /v1/responses', () => {
    it('answers the text form for a string input', async () => {
      const reply = await client().postJson('/v1/responses', {
        model: 'alpha36-35b-a3b-instruct',
        input: 'Write one sentence about the sea.',
      });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.headers.get('x-request-id')).toBeTruthy();
      expectTextResponse(reply.json, 'alpha36-35b-a3b-instruct');
    });

    it('answers the text form for input messages with text parts and a virtual id', async () => {
      const input = [
        {
          role: 'user',
          content: [{ type: 'input_text', text: 'Write one sentence about the sea.' }],
        },
      ];
      const reply = await client().postJson('/v1/responses', {
        model: 'general-pro',
        input,
        temperature: 0.5,
        top_p: 0.9,
        max_tokens: 64,
        top_k: 40,
      });
      expect(reply.status, reply.text).toBe(200);
      expectTextResponse(reply.json, 'alpha35-122b-a10b-instruct-general', {
        temperature: body(reply.json).temperature === null ? null : 0.5,
        top_p: body(reply.json).top_p === null ? null : 0.9,
        max_output_tokens: body(reply.json).max_output_tokens === null ? null : 64,
      });
    });

    it('answers the form for image input when the input holds an input_image part', async () => {
      const input = [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Describe the image.' },
            { type: 'input_image', image_url: pngDataUrl },
          ],
        },
      ];
      const reply = await client().postJson('/v1/responses', {
        model: 'alpha36-35b-a3b-instruct',
        input,
      });
      expect(reply.status, reply.text).toBe(200);
      const body = asRecord(reply.json);
      expect(body.id).toMatch(/^resp-[0-9a-f]+$/);
      expect(body.object).toBe('responses');
      expectInteger(body.created);
      expect(body.model).toBe('alpha36-35b-a3b-instruct');
      const output = asArray(body.output).map(asRecord);
      expect(output).toHaveLength(1);
      const item = output[0] as Record<string, unknown>;
      expect(item.type).toBe('message');
      expect(typeof item.id).toBe('string');
      expect(item.role).toBe('assistant');
      expect(item.finish_reason).toBe('stop');
      const content = asRecord(item.content);
      expect(content.type).toBe('output_text');
      expect(typeof content.text).toBe('string');
      expect(Array.isArray(content.annotations)).toBe(true);
      const usage = asRecord(body.usage);
      for (const field of ['input_tokens', 'output_tokens', 'total_tokens'])
        expectInteger(usage[field]);
      expectInteger(asRecord(usage.input_tokens_details).cached_tokens);
      expectInteger(asRecord(usage.output_tokens_details).reasoning_tokens);
      expect(usage.total_tokens).toBe(
        (usage.input_tokens as number) + (usage.output_tokens as number),
      );
    });

    it('refuses an image given by URL rather than a base64 data URL', async () => {
      const input = [
        {
          role: 'user',
          content: [{ type: 'input_image', image_url: 'https://example.com/cat.png' }],
        },
      ];
      const error = expectNativeError(
        await client().postJson('/v1/responses', { model: 'alpha36-35b-a3b-instruct', input }),
        400,
      );
      expect(String(error.param)).toMatch(/^input\[0\]\.content\[0\]/);
    });

    it('streams the responses events: response.created first, sequence numbers from 0, response.completed last, no [DONE]', async () => {
      const response = await client().post('/v1/responses', {
        model: 'alpha36-35b-a3b-instruct',
        input: 'Write one sentence about the sea.',
        stream: true,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const { events } = await readSse(response);
      expect(events.length).toBeGreaterThan(3);
      expect(events.some((event) => event.data === '[DONE]')).toBe(false);
      const payloads = events.map((event) => {
        const data = asRecord(JSON.parse(event.data));
        expect(data.type).toBe(event.event);
        return data;
      });
      payloads.forEach((payload, index) => expect(payload.sequence_number).toBe(index));
      expect(payloads[0]?.type).toBe('response.created');
      expect(payloads.at(-1)?.type).toBe('response.completed');
      const deltas = payloads
        .filter((payload) => payload.type === 'response.output_text.delta')
        .map((payload) => payload.delta)
        .join('');
      const completed = expectTextResponse(
        asRecord(payloads.at(-1)).response,
        'alpha36-35b-a3b-instruct',
        {},
        true,
      );
      expect(deltas).toBe(completed.output_text);
      const done = payloads.find((payload) => payload.type === 'response.output_text.done');
      expect(done?.text).toBe(completed.output_text);
    });
  });
}
