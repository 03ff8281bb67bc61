import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isGatewayError } from '../errors/gateway-error.js';
import { chatCompletionsRequestSchema } from './chat-completions-request-schema.js';
import { compatEmbedRequestSchema } from './compat-embed-request-schema.js';
import { compatRerankRequestSchema } from './compat-rerank-request-schema.js';
import { embeddingsRequestSchema } from './embeddings-request-schema.js';
import { fastObjectValidator } from './fast-object-validator.js';
import { imageEditRequestSchema } from './image-edit-request-schema.js';
import { imageGenerationRequestSchema } from './image-generation-request-schema.js';
import { issueToGatewayError, parseRequestBody } from './parse-request-body.js';
import { responsesRequestSchema } from './responses-request-schema.js';
import { tokenizeRequestSchema } from './tokenize-request-schema.js';

type Body = Record<string, unknown>;

interface Table {
  schema: z.ZodType;
  /** The smallest valid body. */
  base: Body;
  /** Values each key accepts (with the base), besides the generic values below; every key of the shape has some. */
  samples: Record<string, unknown[]>;
  /** Whole bodies: every field at once, cross-field rules met and broken. */
  bodies: Body[];
}

// Values tried on every key of every schema: each is valid for some keys and wrong for most.
const anyValue: unknown[] = [
  null,
  '',
  'x',
  'auto',
  0,
  -1,
  1,
  2,
  1.5,
  3,
  17,
  100,
  1e9,
  -0.5,
  true,
  false,
  [],
  [1],
  [0, 1],
  ['x'],
  [''],
  [[1]],
  {},
  { a: 1 },
  { a: 'b' },
];

const samplingSamples: Record<string, unknown[]> = {
  use_beam_search: [true],
  top_k: [5],
  min_p: [0.1],
  repetition_penalty: [1.1],
  length_penalty: [0.5],
  stop_token_ids: [[1, 2]],
  include_stop_str_in_output: [true],
  ignore_eos: [true],
  min_tokens: [4],
  skip_special_tokens: [false],
  spaces_between_special_tokens: [true],
  truncate_prompt_tokens: [128],
  prompt_logprobs: [2],
  allowed_token_ids: [[1, 2, 3]],
  bad_words: [['darn']],
};

const chatMessages = [
  { role: 'system', content: 'Be brief.' },
  { role: 'developer', content: [{ type: 'text', text: 'Rules.' }] },
  {
    role: 'user',
    name: 'ada',
    content: [
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } },
    ],
  },
  {
    role: 'assistant',
    content: [{ type: 'refusal', refusal: 'I cannot.' }],
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
    annotations: [],
  },
  { role: 'tool', tool_call_id: 'call_1', content: '42' },
];
const chatTool = {
  type: 'function',
  function: { name: 'f', description: 'd', parameters: { type: 'object' }, strict: null },
};

const chat: Table = {
  schema: chatCompletionsRequestSchema,
  base: { model: 'general-pro', messages: [{ role: 'user', content: 'Hi' }] },
  samples: {
    model: ['alpha-7b'],
    messages: [
      chatMessages,
      [{ role: 'assistant', content: null, tool_calls: [] }],
      [{ role: 'user' }],
      [{ role: 'robot', content: 'x' }],
    ],
    stream: [],
    stream_options: [
      { include_usage: true },
      { include_usage: null, continuous_usage_stats: true },
    ],
    temperature: [0.7],
    top_p: [0.9],
    max_tokens: [],
    max_completion_tokens: [],
    n: [8, 9],
    stop: ['END', ['a', 'b'], new Array(17).fill('s')],
    seed: [-7],
    presence_penalty: [],
    frequency_penalty: [],
    logit_bias: [{ '50256': -100 }, { word: 1 }, { '1': 101 }],
    logprobs: [],
    top_logprobs: [20, 21],
    user: [],
    response_format: [
      { type: 'text' },
      { type: 'json_object' },
      { type: 'json_schema', json_schema: { name: 's', schema: { type: 'object' } } },
      { type: 'yaml' },
    ],
    tools: [[chatTool], [{ type: 'function', function: { name: '' } }]],
    tool_choice: ['none', 'required', { type: 'function', function: { name: 'f' } }],
    parallel_tool_calls: [],
    reasoning_effort: ['low', 'high', 'max', 'medium'],
    store: [],
    metadata: [{ a: 'b' }, { a: 1 }],
    service_tier: ['default', 'flex', 'scale', 'priority'],
    safety_identifier: [],
    prompt_cache_key: [],
    verbosity: ['low', 'medium', 'high'],
    prediction: [{ type: 'content' }, { type: 'content', content: 'x' }],
    modalities: [['text'], ['audio']],
    ...samplingSamples,
  },
  bodies: [
    {
      model: 'general-pro',
      messages: chatMessages,
      stream: true,
      stream_options: { include_usage: true, continuous_usage_stats: false },
      temperature: 0.2,
      top_p: 0.5,
      max_tokens: 64,
      n: 1,
      stop: ['\n'],
      seed: 1,
      presence_penalty: 0,
      frequency_penalty: 0,
      logit_bias: { '1': 5 },
      logprobs: true,
      top_logprobs: 2,
      user: 'u-1',
      response_format: { type: 'json_object' },
      tools: [chatTool],
      tool_choice: { type: 'function', function: { name: 'f' } },
      parallel_tool_calls: false,
      reasoning_effort: 'low',
      store: false,
      metadata: { run: '1' },
      service_tier: 'auto',
      safety_identifier: 'sid',
      prompt_cache_key: 'pck',
      verbosity: 'low',
      prediction: { type: 'content' },
      modalities: ['text'],
      use_beam_search: false,
      top_k: 3,
      min_p: 0,
      repetition_penalty: 1,
      length_penalty: 1,
      stop_token_ids: [2],
      include_stop_str_in_output: false,
      ignore_eos: false,
      min_tokens: 64,
      skip_special_tokens: true,
      spaces_between_special_tokens: false,
      truncate_prompt_tokens: 10,
      allowed_token_ids: [5],
      bad_words: ['x'],
    },
    // The cross-field rules, each met and broken.
    {
      model: 'm',
      messages: [{ role: 'user', content: 'Hi' }],
      stream_options: { include_usage: true },
    },
    {
      model: 'm',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: false,
      stream_options: { include_usage: true },
    },
    { model: 'm', messages: [{ role: 'user', content: 'Hi' }], top_logprobs: 2 },
    { model: 'm', messages: [{ role: 'user', content: 'Hi' }], top_logprobs: 2, logprobs: false },
    {
      model: 'm',
      messages: [{ role: 'user', content: 'Hi' }],
      max_tokens: 5,
      max_completion_tokens: 5,
    },
    { model: 'm', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 5, min_tokens: 6 },
    {
      model: 'm',
      messages: [{ role: 'user', content: 'Hi' }],
      max_completion_tokens: 5,
      min_tokens: 5,
    },
    {
      model: 'm',
      messages: [{ role: 'user', content: 'Hi' }],
      max_completion_tokens: 5,
      min_tokens: 6,
    },
    { model: 'm', messages: [{ role: 'user', content: 'Hi' }], stream: true, prompt_logprobs: 1 },
    {
      model: 'm',
      messages: [{ role: 'user', content: 'Hi' }],
      tool_choice: { type: 'function', function: { name: 'g' } },
      tools: [chatTool],
    },
    {
      model: 'm',
      messages: [{ role: 'user', content: 'Hi' }],
      tool_choice: { type: 'function', function: { name: 'f' } },
    },
    // Fault matrix row 25: vLLM's own keys are refused by name.
    {
      model: 'm',
      messages: [{ role: 'user', content: 'Hi' }],
      chat_template_kwargs: { enable_thinking: true },
    },
    // A client that sends every optional field, most of them as null.
    {
      model: 'm',
      messages: [{ role: 'user', content: 'Hi' }],
      temperature: null,
      top_p: null,
      stop: null,
      tools: null,
      tool_choice: null,
      user: null,
      n: null,
      unknown_null: null,
    },
  ],
};

const responses: Table = {
  schema: responsesRequestSchema,
  base: { model: 'alpha36-35b-a3b-instruct', input: 'Tell me a joke.' },
  samples: {
    model: ['m'],
    input: [
      [{ role: 'user', content: 'Hi' }],
      [
        { type: 'message', role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What?' },
            { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'auto' },
          ],
        },
        {
          type: 'message',
          role: 'assistant',
          id: 'msg_1',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Hello.', annotations: [] }],
        },
        { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: '42' },
        { type: 'reasoning', id: 'rs_1', summary: [] },
      ],
      [{ type: 'item_reference', id: 'msg_1' }],
      [{ role: 'user', content: [{ type: 'input_file', file_id: 'f' }] }],
    ],
    stream: [],
    stream_options: [{ include_obfuscation: false }],
    temperature: [0.7],
    top_p: [0.9],
    max_tokens: [],
    max_output_tokens: [],
    instructions: ['Be brief.'],
    reasoning: [{ effort: 'low', summary: 'auto' }, { effort: 'xhigh' }, { effort: 'extreme' }],
    tools: [
      [{ type: 'function', name: 'f', parameters: { type: 'object' } }],
      [{ type: 'web_search' }],
      [{ type: 'function', name: '' }],
    ],
    tool_choice: ['none', 'required', { type: 'function', name: 'f' }],
    parallel_tool_calls: [],
    max_tool_calls: [],
    text: [
      { format: { type: 'text' } },
      { format: { type: 'json_schema', name: 's', schema: { type: 'object' } }, verbosity: 'low' },
      { format: { type: 'yaml' } },
    ],
    store: [],
    metadata: [
      { a: 'b' },
      Object.fromEntries(Array.from({ length: 17 }, (_, index) => [`k${index}`, 'v'])),
      { ['k'.repeat(65)]: 'v' },
    ],
    include: [['reasoning.encrypted_content']],
    top_logprobs: [20, 21],
    user: [],
    safety_identifier: [],
    prompt_cache_key: [],
    service_tier: ['default', 'flex'],
    truncation: ['disabled'],
    background: [],
    previous_response_id: ['resp_1'],
    conversation: ['conv_1'],
    prompt: [{ id: 'pmpt_1' }],
    ...samplingSamples,
  },
  bodies: [
    {
      model: 'm',
      input: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_obfuscation: true },
      temperature: 1,
      top_p: 1,
      max_output_tokens: 100,
      instructions: 'Be brief.',
      reasoning: { effort: 'high', summary: null },
      tools: [{ type: 'function', name: 'f', description: null, parameters: null, strict: true }],
      tool_choice: { type: 'function', name: 'f' },
      parallel_tool_calls: true,
      max_tool_calls: 1,
      text: { format: { type: 'json_object' } },
      store: false,
      metadata: { a: 'b' },
      include: [],
      top_logprobs: 0,
      user: 'u',
      safety_identifier: 's',
      prompt_cache_key: 'p',
      service_tier: 'auto',
      truncation: 'auto',
      background: false,
      top_k: 1,
      min_tokens: 100,
    },
    { model: 'm', input: 'Hi', max_tokens: 5, max_output_tokens: 5 },
    { model: 'm', input: 'Hi', max_output_tokens: 5, min_tokens: 6 },
    { model: 'm', input: 'Hi', max_tokens: 5, min_tokens: 5 },
    { model: 'm', input: 'Hi', stream: true, prompt_logprobs: 1 },
    {
      model: 'm',
      input: 'Hi',
      tool_choice: { type: 'function', name: 'g' },
      tools: [{ type: 'function', name: 'f' }],
    },
    {
      model: 'm',
      input: 'Hi',
      previous_response_id: null,
      conversation: null,
      prompt: null,
      background: null,
      store: null,
    },
  ],
};

const embeddings: Table = {
  schema: embeddingsRequestSchema,
  base: { model: 'gamma-m3', input: 'hello' },
  samples: {
    model: ['m'],
    input: [['a', 'b'], [1, 2], [[1], [2, 3]], [[]], new Array(2049).fill('a')],
    encoding_format: ['float', 'base64', 'int8'],
    dimensions: [],
    user: [],
  },
  bodies: [
    { model: 'm', input: ['a'], encoding_format: 'base64', dimensions: 256, user: 'u' },
    { model: 'm', input: ['a'], encoding_format: null },
    { input: 'a', model: 'm', user: 'u', dimensions: 8 },
  ],
};

const compatEmbed: Table = {
  schema: compatEmbedRequestSchema,
  base: { model: 'alpha3-vl-embedding-8b', input_type: 'search_document', texts: ['a'] },
  samples: {
    model: ['m'],
    inputs: [
      [{ content: [{ type: 'text', text: 'a' }] }],
      [{ content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] }],
      [{ content: [{ type: 'text', text: 'a', extra: 1 }] }],
    ],
    texts: [['a', 'b'], new Array(97).fill('a')],
    input_type: ['search_query', 'image', 'classification', 'clustering'],
    output_dimension: [],
    embedding_types: [['float'], ['float', 'base64'], ['int8'], ['binary']],
    truncate: ['NONE', 'START', 'END'],
    max_tokens: [],
  },
  bodies: [
    { model: 'm', input_type: 'search_document' },
    { model: 'm', input_type: 'image', inputs: [{ content: [{ type: 'text', text: 'a' }] }] },
    {
      model: 'm',
      input_type: 'search_query',
      inputs: [{ content: [{ type: 'text', text: 'a' }] }],
      texts: ['a'],
    },
    { model: 'm', input_type: 'search_query', texts: ['a'], embedding_types: null },
    {
      embedding_types: ['base64'],
      truncate: 'END',
      texts: ['a', 'b'],
      output_dimension: 256,
      input_type: 'search_query',
      model: 'm',
      max_tokens: 8,
    },
  ],
};

const compatRerank: Table = {
  schema: compatRerankRequestSchema,
  base: { model: 'gamma-reranker-v2-m3', query: 'q', documents: ['a', 'b'] },
  samples: {
    model: ['m'],
    query: ['what'],
    documents: [['a', ''], [1]],
    top_n: [],
    max_tokens_per_doc: [],
  },
  bodies: [{ documents: ['a'], top_n: 1, query: 'q', max_tokens_per_doc: 512, model: 'm' }],
};

const tokenize: Table = {
  schema: tokenizeRequestSchema,
  base: { model: 'alpha-7b', prompt: 'Hello' },
  samples: { model: ['m'], prompt: ['Hello world'], add_special_tokens: [] },
  bodies: [{ prompt: '', add_special_tokens: false, model: 'm' }],
};

const image = { image_url: 'data:image/png;base64,AAAA' };
const imageSamples: Record<string, unknown[]> = {
  prompt: ['a fox', '  \n '],
  model: ['m'],
  output_format: ['png', 'jpeg', 'webp', 'gif'],
  quality: ['low', 'medium', 'standard', 'high', 'hd', 'auto', 'ultra'],
  size: ['1024x1024', '2048x1024', '2049x1024', '0x512', '512X512', '0512x512'],
  n: [],
  response_format: ['b64_json', 'url'],
  stream: [],
  background: ['transparent'],
  moderation: ['low'],
  output_compression: [80],
  partial_images: [],
  user: [],
};

const imageGeneration: Table = {
  schema: imageGenerationRequestSchema,
  base: {
    model: 'alpha-image',
    prompt: 'a red fox in snow',
    output_format: 'png',
    quality: 'high',
    size: '1024x1024',
  },
  samples: { ...imageSamples, style: ['vivid', { name: 'vivid' }] },
  bodies: [
    {
      model: 'm',
      prompt: 'p',
      output_format: 'png',
      quality: 'high',
      size: '1x1',
      n: null,
      response_format: null,
      background: null,
      style: null,
    },
  ],
};

const imageEdit: Table = {
  schema: imageEditRequestSchema,
  base: {
    model: 'alpha-image-edit',
    prompt: 'make the sky purple',
    images: [image],
    output_format: 'webp',
    quality: 'auto',
    size: '1024x768',
  },
  samples: {
    ...imageSamples,
    images: [
      new Array(16).fill(image),
      new Array(17).fill(image),
      [{ file_id: 'file-1' }],
      [{ ...image, file_id: 'file-1' }],
      ['data:image/png;base64,AAAA'],
    ],
    input_fidelity: ['high'],
    mask: [image, { file_id: 'file-1' }, 'data:image/png;base64,AAAA'],
  },
  bodies: [
    {
      size: '1x1',
      quality: 'low',
      output_format: 'png',
      images: [image],
      prompt: 'p',
      model: 'm',
      mask: image,
      n: 0,
    },
  ],
};

const tables: Record<string, Table> = {
  chatCompletionsRequestSchema: chat,
  responsesRequestSchema: responses,
  embeddingsRequestSchema: embeddings,
  compatEmbedRequestSchema: compatEmbed,
  compatRerankRequestSchema: compatRerank,
  tokenizeRequestSchema: tokenize,
  imageGenerationRequestSchema: imageGeneration,
  imageEditRequestSchema: imageEdit,
};

function shapeKeys(schema: z.ZodType): string[] {
  const object = schema instanceof z.ZodPipe ? schema.def.out : schema;
  if (!(object instanceof z.ZodObject)) throw new Error('expected an object schema');
  return Object.keys(object.shape);
}

function reversed(body: Body): Body {
  return Object.fromEntries(Object.entries(body).reverse());
}

/** Every body of a table: the base, each key missing, each key with each sample and each generic value, unknown keys, other orders. */
function bodiesOf(table: Table): unknown[] {
  const { base, samples } = table;
  const bodies: unknown[] = [base, reversed(base), null, [], 'x', 1, true, [base]];
  for (const key of shapeKeys(table.schema)) {
    if (key in base) {
      const without = { ...base };
      delete without[key];
      bodies.push(without);
    }
    for (const value of [...(samples[key] ?? []), ...anyValue]) {
      bodies.push({ ...base, [key]: value }, { [key]: value, ...base });
    }
  }
  for (const body of table.bodies)
    bodies.push(body, reversed(body), { ...body, stream: true }, { ...body, unknown_key: 1 });
  bodies.push(
    { ...base, unknown_key: 1 },
    { ...base, unknown_key: null },
    { ...base, Model: 'm' },
    { ...base, constructor: 1 },
  );
  return bodies;
}

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error))
      return { status: error.status, code: error.code, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected the body to be refused');
}

describe('fastObjectValidator: the same answer as zod for every body', () => {
  it.each(Object.keys(tables))('%s', (name) => {
    const table = tables[name] as Table;
    const validator = fastObjectValidator(table.schema);
    // The fast path must be in use for every request schema, or this test would compare zod with itself.
    expect(validator).toBeDefined();
    if (validator === undefined) return;
    for (const key of shapeKeys(table.schema))
      expect(table.samples, `samples for ${name}.${key}`).toHaveProperty([key]);
    let accepted = 0;
    let refused = 0;
    for (const body of bodiesOf(table)) {
      const text = JSON.stringify(body);
      const expected = table.schema.safeParse(JSON.parse(text));
      const fast = validator(JSON.parse(text));
      if (expected.success) {
        accepted += 1;
        expect(fast, text).toStrictEqual(expected.data);
        // Same key order too: the upstream request is serialised from this object.
        expect(JSON.stringify(fast), text).toBe(JSON.stringify(expected.data));
        expect(parseRequestBody(table.schema, text), text).toStrictEqual(expected.data);
      } else {
        refused += 1;
        expect(fast, text).toBeUndefined();
        const issue = expected.error.issues[0];
        if (issue === undefined) throw new Error(`zod refused ${text} without an issue`);
        const zodRefusal = issueToGatewayError(issue, JSON.parse(text));
        expect(
          refusal(() => parseRequestBody(table.schema, text)),
          text,
        ).toStrictEqual({
          status: zodRefusal.status,
          code: zodRefusal.code,
          param: zodRefusal.param,
          message: zodRefusal.message,
        });
      }
    }
    // Both sides of every schema are exercised, not just one.
    expect(accepted).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(10);
  });

  it('builds no validator for a shape with fewer optional keys than asked for', () => {
    expect(
      fastObjectValidator(chatCompletionsRequestSchema, { minimumOptionalKeys: 16 }),
    ).toBeDefined();
    expect(fastObjectValidator(responsesRequestSchema, { minimumOptionalKeys: 16 })).toBeDefined();
    expect(fastObjectValidator(tokenizeRequestSchema, { minimumOptionalKeys: 2 })).toBeUndefined();
    expect(fastObjectValidator(tokenizeRequestSchema, { minimumOptionalKeys: 1 })).toBeDefined();
  });

  it('refuses what it does not handle, leaving it to zod', () => {
    expect(fastObjectValidator(z.string())).toBeUndefined();
    expect(fastObjectValidator(z.looseObject({ a: z.string() }))).toBeUndefined();
    expect(
      fastObjectValidator(z.preprocess((value) => value, z.strictObject({ a: z.string() }))),
    ).toBeUndefined();
    expect(
      fastObjectValidator(z.strictObject({ toString: z.string().optional() })),
    ).toBeUndefined();
  });

  it('gives what zod gives for defaults, catches and transforms of absent keys, and for a plain (stripping) object', () => {
    const schema = z.object({
      a: z.string(),
      defaulted: z.int().default(3),
      optionalDefault: z.int().optional().default(4),
      caught: z.int().catch(5),
      transformed: z
        .int()
        .optional()
        .transform((value) => value ?? 6),
      refusing: z
        .unknown()
        .optional()
        .refine((value) => value !== undefined),
      nullish: z.string().nullish(),
    });
    const validator = fastObjectValidator(schema);
    expect(validator).toBeDefined();
    for (const body of [
      { a: 'x' },
      { a: 'x', refusing: 1 },
      { a: 'x', refusing: 1, other: 2, caught: 'no', nullish: null },
      { refusing: 1 },
      { a: 'x', refusing: 1, defaulted: 'no' },
    ]) {
      const expected = schema.safeParse(body);
      const fast = validator?.(structuredClone(body));
      if (expected.success) {
        expect(fast).toStrictEqual(expected.data);
        expect(Object.keys(fast ?? {})).toEqual(Object.keys(expected.data));
      } else expect(fast).toBeUndefined();
    }
  });
});
