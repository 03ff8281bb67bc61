// The throughput scenarios (1-4, 10): what is sent, and how an answer is checked before a target is measured.
import {
  chatRequestBody,
  embeddingsAnswerComplete,
  embeddingsRequestBody,
  responsesRequestBody,
} from './payloads.mjs';

/** The key every target is started with, and the headers every scenario's request carries. */
export const benchApiKey = `ig-bench-${'0123456789abcdef'.repeat(2)}`;
export const benchHeaders = {
  'content-type': 'application/json',
  authorization: `Bearer ${benchApiKey}`,
};

export const throughputScenarios = [
  {
    id: 1,
    title: 'non-streaming chat completion (~300 B request, ~600 B response)',
    path: '/v1/chat/completions',
    body: chatRequestBody(false),
    expect: '"chat.completion"',
  },
  {
    id: 2,
    title: 'streaming chat completion, 32 content chunks',
    path: '/v1/chat/completions',
    body: chatRequestBody(true),
    expect: 'data: [DONE]',
  },
  {
    id: 3,
    title: 'embeddings, 16 inputs -> 16 x 1024 floats (~330 KB upstream answer)',
    path: '/v1/embeddings',
    body: embeddingsRequestBody(16),
    expect: '"embedding"',
    complete: (text) => embeddingsAnswerComplete(text, 16, 1024, 'float'),
  },
  {
    id: 4,
    title: 'responses endpoint, streaming (32 deltas)',
    path: '/v1/responses',
    body: responsesRequestBody(),
    expect: 'response.completed',
  },
  {
    id: 10,
    title:
      "embeddings in base64 (openai-node's default), 16 inputs -> 16 x 1024 float32 (~88 KB upstream answer)",
    path: '/v1/embeddings',
    body: embeddingsRequestBody(16, 'base64'),
    expect: '"embedding"',
    complete: (text) => embeddingsAnswerComplete(text, 16, 1024, 'base64'),
  },
];
