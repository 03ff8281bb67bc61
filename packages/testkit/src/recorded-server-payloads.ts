/**
 * Chat completion answers shaped as the OpenAI-compatible model servers write them, streamed and not,
 * so that tests can put each behind the gateway and see it read tolerantly (docs/design.md,
 * "Tolerance"). Each follows the server's own source, named above it, in our words; all say the same
 * thing (text, reasoning where the server has a field for it, token counts), so one set of expectations
 * fits all.
 */

type Json = Record<string, unknown>;

/** What every recorded answer says, in whichever shape its server writes it. */
export const recordedAnswer = {
  content: 'Recorded answer from an OpenAI-compatible server.',
  /** Content in the pieces the streams send it in. */
  pieces: ['Recorded answer', ' from an', ' OpenAI-compatible', ' server.'],
  reasoning: 'The user wants a short reply.',
  promptTokens: 12,
  completionTokens: 9,
} as const;

const created = 1_767_225_600;
const totalTokens = recordedAnswer.promptTokens + recordedAnswer.completionTokens;
const plainUsage = {
  prompt_tokens: recordedAnswer.promptTokens,
  completion_tokens: recordedAnswer.completionTokens,
  total_tokens: totalTokens,
};

export interface RecordedServerPayload {
  /** Which server and version the shape comes from. */
  name: string;
  /** The server's `system_fingerprint`, or undefined when it sends none (or null). */
  systemFingerprint: string | undefined;
  /** Whether the answer carries reasoning text (in `reasoning` or `reasoning_content`). */
  hasReasoning: boolean;
  /** The non-streamed answer; `model` is the name the gateway asked for. */
  completion(model: string): Json;
  /**
   * The streamed chunks before `data: [DONE]`, the usage chunk included: the gateway always asks for
   * it (`stream_options.include_usage`), and each of these servers sends one then.
   */
  chunks(model: string): Json[];
}

/*
 * vLLM up to 0.11 (vllm-project/vllm, vllm/entrypoints/openai/protocol.py and serving_chat.py):
 * every field present, unset ones null; `tool_calls` always [];
 * reasoning as `reasoning_content`; no fingerprint; chunks serialized without unset keys.
 */
const vllmOld: RecordedServerPayload = {
  name: 'vLLM <= 0.11',
  systemFingerprint: undefined,
  hasReasoning: true,
  completion: (model) => ({
    id: 'chatcmpl-5d0c2f6e9a8b4c1d8e7f6a5b4c3d2e1f',
    object: 'chat.completion',
    created,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          reasoning_content: recordedAnswer.reasoning,
          content: recordedAnswer.content,
          tool_calls: [],
        },
        logprobs: null,
        finish_reason: 'stop',
        stop_reason: null,
      },
    ],
    usage: { ...plainUsage, prompt_tokens_details: null },
    prompt_logprobs: null,
    kv_transfer_params: null,
  }),
  chunks: (model) => {
    const base = {
      id: 'chatcmpl-5d0c2f6e9a8b4c1d8e7f6a5b4c3d2e1f',
      object: 'chat.completion.chunk',
      created,
      model,
    };
    return [
      {
        ...base,
        choices: [
          {
            index: 0,
            delta: { role: 'assistant', content: '' },
            logprobs: null,
            finish_reason: null,
          },
        ],
      },
      {
        ...base,
        choices: [
          {
            index: 0,
            delta: { reasoning_content: recordedAnswer.reasoning },
            logprobs: null,
            finish_reason: null,
          },
        ],
      },
      ...recordedAnswer.pieces.map((piece) => ({
        ...base,
        choices: [{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }],
      })),
      {
        ...base,
        choices: [
          {
            index: 0,
            delta: { content: '' },
            logprobs: null,
            finish_reason: 'stop',
            stop_reason: null,
          },
        ],
      },
      { ...base, choices: [], usage: plainUsage },
    ];
  },
};

/*
 * vLLM after PR #27752 (vllm-project/vllm, same files): `reasoning`, no
 * `tool_calls` key when there are none, `system_fingerprint` filled (on the final chunk only when
 * streaming), `completion_tokens_details.reasoning_tokens`, newer extras (`metrics`) the gateway drops.
 */
const vllmNew: RecordedServerPayload = {
  name: 'vLLM >= 0.12',
  systemFingerprint: 'vllm-0.17.1-3f2a9c',
  hasReasoning: true,
  completion: (model) => ({
    id: 'chatcmpl-0f1e2d3c4b5a69788796a5b4c3d2e1f0',
    object: 'chat.completion',
    created,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: recordedAnswer.content,
          refusal: null,
          annotations: null,
          audio: null,
          function_call: null,
          reasoning: recordedAnswer.reasoning,
        },
        logprobs: null,
        finish_reason: 'stop',
        stop_reason: null,
        token_ids: null,
      },
    ],
    service_tier: null,
    system_fingerprint: 'vllm-0.17.1-3f2a9c',
    usage: {
      ...plainUsage,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 6 },
    },
    prompt_logprobs: null,
    prompt_token_ids: null,
    kv_transfer_params: null,
    metrics: { queue_ms: 1 },
  }),
  chunks: (model) => {
    const base = {
      id: 'chatcmpl-0f1e2d3c4b5a69788796a5b4c3d2e1f0',
      object: 'chat.completion.chunk',
      created,
      model,
    };
    return [
      {
        ...base,
        choices: [
          {
            index: 0,
            delta: { role: 'assistant', content: '' },
            logprobs: null,
            finish_reason: null,
          },
        ],
      },
      {
        ...base,
        choices: [
          {
            index: 0,
            delta: { reasoning: recordedAnswer.reasoning },
            logprobs: null,
            finish_reason: null,
          },
        ],
      },
      ...recordedAnswer.pieces.map((piece) => ({
        ...base,
        choices: [{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }],
      })),
      {
        ...base,
        system_fingerprint: 'vllm-0.17.1-3f2a9c',
        choices: [
          { index: 0, delta: {}, logprobs: null, finish_reason: 'stop', stop_reason: null },
        ],
      },
      {
        ...base,
        choices: [],
        usage: { ...plainUsage, completion_tokens_details: { reasoning_tokens: 6 } },
      },
    ];
  },
};

/*
 * text-generation-inference's OpenAI route (its router/src/lib.rs and chat.rs; huggingface.js's
 * chat-completion spec): `id` an empty string, `system_fingerprint` the version and sha, `logprobs`
 * null, `usage` always present, no reasoning field. Every chunk has `role` in its delta and
 * `usage: null`; the last token's chunk carries the finish reason; the usage chunk has no choices.
 */
const tgi: RecordedServerPayload = {
  name: 'text-generation-inference 3',
  systemFingerprint: '3.3.4-sha-9f38d93',
  hasReasoning: false,
  completion: (model) => ({
    object: 'chat.completion',
    id: '',
    created,
    model,
    system_fingerprint: '3.3.4-sha-9f38d93',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: recordedAnswer.content },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: plainUsage,
  }),
  chunks: (model) => {
    const base = {
      object: 'chat.completion.chunk',
      id: '',
      created,
      model,
      system_fingerprint: '3.3.4-sha-9f38d93',
    };
    return [
      ...recordedAnswer.pieces.map((piece) => ({
        ...base,
        choices: [
          {
            index: 0,
            delta: { role: 'assistant', content: piece },
            logprobs: null,
            finish_reason: null,
          },
        ],
        usage: null,
      })),
      {
        ...base,
        choices: [
          {
            index: 0,
            delta: { role: 'assistant', content: '' },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage: null,
      },
      { ...base, choices: [], usage: plainUsage },
    ];
  },
};

/*
 * llama.cpp's server (ggml-org/llama.cpp, tools/server: the OpenAI-compatible chat result and its
 * stream chunks): `id` `chatcmpl-<random>`, `system_fingerprint` `b<build>-<commit>`, no `logprobs`
 * unless asked, a `timings` object beside `usage`, reasoning as `reasoning_content`. The first chunk
 * has `content: null` with the role; the finishing chunk has an empty delta and carries `usage` and
 * `timings` itself.
 */
const timings = {
  prompt_n: 12,
  prompt_ms: 21.5,
  prompt_per_token_ms: 1.79,
  prompt_per_second: 558.1,
  predicted_n: 9,
  predicted_ms: 88.2,
  predicted_per_token_ms: 9.8,
  predicted_per_second: 102.04,
};
const llamaCpp: RecordedServerPayload = {
  name: 'llama.cpp server',
  systemFingerprint: 'b6881-8b11deea4',
  hasReasoning: true,
  completion: (model) => ({
    choices: [
      {
        finish_reason: 'stop',
        index: 0,
        message: {
          role: 'assistant',
          reasoning_content: recordedAnswer.reasoning,
          content: recordedAnswer.content,
        },
      },
    ],
    created,
    model,
    system_fingerprint: 'b6881-8b11deea4',
    object: 'chat.completion',
    usage: plainUsage,
    id: 'chatcmpl-Xq7tR2mJ9vLp4sWc8nHd1kFb6yGz3aEu',
    timings,
  }),
  chunks: (model) => {
    const tail = {
      created,
      id: 'chatcmpl-Xq7tR2mJ9vLp4sWc8nHd1kFb6yGz3aEu',
      model,
      system_fingerprint: 'b6881-8b11deea4',
      object: 'chat.completion.chunk',
    };
    return [
      {
        choices: [{ finish_reason: null, index: 0, delta: { role: 'assistant', content: null } }],
        ...tail,
      },
      {
        choices: [
          { finish_reason: null, index: 0, delta: { reasoning_content: recordedAnswer.reasoning } },
        ],
        ...tail,
      },
      ...recordedAnswer.pieces.map((piece) => ({
        choices: [{ finish_reason: null, index: 0, delta: { content: piece } }],
        ...tail,
      })),
      {
        choices: [{ finish_reason: 'stop', index: 0, delta: {} }],
        ...tail,
        usage: plainUsage,
        timings,
      },
    ];
  },
};

/*
 * Ollama's OpenAI route (ollama/ollama, openai/openai.go): `id` `chatcmpl-<n>`, `system_fingerprint`
 * always `fp_ollama`, no `logprobs`, `reasoning` and `tool_calls` left out when empty. Every chunk's
 * delta repeats the role; the last content chunk has the finish reason; the usage chunk (only with
 * `stream_options.include_usage`) has no choices.
 */
const ollama: RecordedServerPayload = {
  name: 'Ollama OpenAI route',
  systemFingerprint: 'fp_ollama',
  hasReasoning: true,
  completion: (model) => ({
    id: 'chatcmpl-417',
    object: 'chat.completion',
    created,
    model,
    system_fingerprint: 'fp_ollama',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: recordedAnswer.content,
          reasoning: recordedAnswer.reasoning,
        },
        finish_reason: 'stop',
      },
    ],
    usage: plainUsage,
  }),
  chunks: (model) => {
    const base = {
      id: 'chatcmpl-417',
      object: 'chat.completion.chunk',
      created,
      model,
      system_fingerprint: 'fp_ollama',
    };
    return [
      {
        ...base,
        choices: [
          {
            index: 0,
            delta: { role: 'assistant', content: '', reasoning: recordedAnswer.reasoning },
            finish_reason: null,
          },
        ],
      },
      ...recordedAnswer.pieces.map((piece) => ({
        ...base,
        choices: [{ index: 0, delta: { role: 'assistant', content: piece }, finish_reason: null }],
      })),
      {
        ...base,
        choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: 'stop' }],
      },
      { ...base, choices: [], usage: plainUsage },
    ];
  },
};

/*
 * SGLang (sgl-project/sglang, python/sglang/srt/entrypoints/openai/protocol.py): no
 * `system_fingerprint`, `logprobs` null, `matched_stop` beside the finish reason, `tool_calls` null,
 * `usage` with `prompt_tokens_details` null and its own top-level `reasoning_tokens`, a `metadata`
 * extra. Chunks carry `usage: null` until the usage chunk.
 */
const sglang: RecordedServerPayload = {
  name: 'SGLang',
  systemFingerprint: undefined,
  hasReasoning: true,
  completion: (model) => ({
    id: '6d2b8c0e4f7a4e1b9c3d5a7f8e0b1c2d',
    object: 'chat.completion',
    created,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: recordedAnswer.content,
          reasoning_content: recordedAnswer.reasoning,
          tool_calls: null,
        },
        logprobs: null,
        finish_reason: 'stop',
        matched_stop: 151_645,
      },
    ],
    usage: {
      prompt_tokens: recordedAnswer.promptTokens,
      total_tokens: totalTokens,
      completion_tokens: recordedAnswer.completionTokens,
      prompt_tokens_details: null,
      reasoning_tokens: 0,
    },
    metadata: { weight_version: 'default' },
  }),
  chunks: (model) => {
    const base = {
      id: '6d2b8c0e4f7a4e1b9c3d5a7f8e0b1c2d',
      object: 'chat.completion.chunk',
      created,
      model,
    };
    const delta = (fields: Json) => ({
      role: null,
      content: null,
      reasoning_content: null,
      tool_calls: null,
      ...fields,
    });
    return [
      {
        ...base,
        choices: [
          {
            index: 0,
            delta: delta({ role: 'assistant', content: '' }),
            logprobs: null,
            finish_reason: null,
            matched_stop: null,
          },
        ],
        usage: null,
      },
      {
        ...base,
        choices: [
          {
            index: 0,
            delta: delta({ reasoning_content: recordedAnswer.reasoning }),
            logprobs: null,
            finish_reason: null,
            matched_stop: null,
          },
        ],
        usage: null,
      },
      ...recordedAnswer.pieces.map((piece) => ({
        ...base,
        choices: [
          {
            index: 0,
            delta: delta({ content: piece }),
            logprobs: null,
            finish_reason: null,
            matched_stop: null,
          },
        ],
        usage: null,
      })),
      {
        ...base,
        choices: [
          {
            index: 0,
            delta: delta({}),
            logprobs: null,
            finish_reason: 'stop',
            matched_stop: 151_645,
          },
        ],
        usage: null,
      },
      {
        ...base,
        choices: [],
        usage: {
          prompt_tokens: recordedAnswer.promptTokens,
          total_tokens: totalTokens,
          completion_tokens: recordedAnswer.completionTokens,
          prompt_tokens_details: null,
          reasoning_tokens: 0,
        },
      },
    ];
  },
};

/** Every recorded server shape, oldest vLLM first. */
export const recordedServerPayloads: readonly RecordedServerPayload[] = [
  vllmOld,
  vllmNew,
  tgi,
  llamaCpp,
  ollama,
  sglang,
];
