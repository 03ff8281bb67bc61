import { bench, describe } from 'vitest';
import { chatCompletionsRequestSchema } from '../src/schemas/chat-completions-request-schema.js';
import { plainChatRequest } from '../src/schemas/chat-request-fast-path.js';
import { upstreamChatCompletionSchema } from '../src/schemas/upstream-chat-completion-schema.js';
import {
  matchPlainContentChunk,
  rewritePlainChunk,
} from '../src/transforms/plain-content-chunk.js';

// What a speed-only construct could save at most: the cost, in one process, of the plain work it
// would skip. docs/performance.md compares these with a request's CPU on the same Node line.
// Run: pnpm --filter @infergate/core bench:constructs

const request = JSON.stringify({
  model: 'alpha36-35b-a3b-instruct',
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Say hello in five words, please.' },
  ],
  max_tokens: 16,
});
const completion = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1_767_225_600,
  model: 'served',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'Hello there, friend!', tool_calls: [] },
      logprobs: null,
      finish_reason: 'stop',
      stop_reason: null,
    },
  ],
  usage: { prompt_tokens: 25, total_tokens: 37, completion_tokens: 12 },
});
const chunk = JSON.stringify({
  id: 'chatcmpl-fedcba9876543210',
  object: 'chat.completion.chunk',
  created: 1_767_225_600,
  model: 'served-model',
  choices: [{ index: 0, delta: { content: ' lorem' }, logprobs: null, finish_reason: null }],
});
const id = 'chatcmpl-00ff00ff00ff00ff00ff00ff00ff00ff';
const model = 'alpha36-35b-a3b-instruct';
const idJson = JSON.stringify(id);
const modelJson = JSON.stringify(model);
const listener = () => {};

describe('a chat request body (parsed and validated once per request)', () => {
  bench('JSON.parse alone', () => {
    JSON.parse(request);
  });
  bench('JSON.parse and the whole zod schema', () => {
    chatCompletionsRequestSchema.safeParse(JSON.parse(request));
  });
  bench('JSON.parse and plainChatRequest (kept)', () => {
    plainChatRequest(JSON.parse(request));
  });
});

describe('an upstream chat completion (read once per request)', () => {
  bench('JSON.parse alone', () => {
    JSON.parse(completion);
  });
  bench('JSON.parse and the zod schema', () => {
    upstreamChatCompletionSchema.safeParse(JSON.parse(completion));
  });
});

describe('an abort controller (two per request on Node)', () => {
  bench('AbortController, one listener added and removed', () => {
    const controller = new AbortController();
    controller.signal.addEventListener('abort', listener);
    controller.signal.removeEventListener('abort', listener);
  });
});

describe('a content chunk of a stream (32 per bench stream)', () => {
  bench('parse, set id and model, stringify (the plain path)', () => {
    const parsed = JSON.parse(chunk) as { id: string; model: string };
    parsed.id = id;
    parsed.model = model;
    JSON.stringify(parsed);
  });
  bench('matchPlainContentChunk and rewritePlainChunk (kept)', () => {
    const plain = matchPlainContentChunk(chunk);
    if (plain !== undefined) rewritePlainChunk(chunk, plain, idJson, modelJson);
  });
});
