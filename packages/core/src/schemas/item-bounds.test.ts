import { describe, expect, it } from 'vitest';
import { schemaCases } from '../../test/schema-cases.js';
import { chatCompletionsRequestSchema } from './chat-completions-request-schema.js';
import { compatEmbedRequestSchema } from './compat-embed-request-schema.js';
import { compatRerankRequestSchema } from './compat-rerank-request-schema.js';
import { embeddingsRequestSchema } from './embeddings-request-schema.js';
import { maxContentParts, maxMessages, maxRerankDocuments, maxTools } from './item-bounds.js';
import { responsesRequestSchema } from './responses-request-schema.js';

const chat = schemaCases(chatCompletionsRequestSchema);
const responses = schemaCases(responsesRequestSchema);
const user = { role: 'user', content: 'Hi' };
const text = { type: 'text', text: 'Hi' };

/*
 * Every over-long array below is filled with items that are themselves invalid: a 400 naming the array
 * (not one of its items) shows its length was checked before any item was looked at.
 */
describe('item bounds, checked before the items', () => {
  it('chat: at most 2048 messages, 64 content parts per message, 128 tools and 128 tool calls', () => {
    expect(
      chat.parse({ model: 'm', messages: new Array(maxMessages).fill(user) }).messages,
    ).toHaveLength(maxMessages);
    const messages = chat.failure({ model: 'm', messages: new Array(maxMessages + 1).fill({}) });
    expect(messages).toMatchObject({ status: 400, code: 'invalid_parameter', param: 'messages' });
    expect(messages.message).toContain(`at most ${maxMessages} items, but got ${maxMessages + 1}`);

    expect(
      chat.parse({
        model: 'm',
        messages: [{ role: 'user', content: new Array(maxContentParts).fill(text) }],
      }).messages,
    ).toHaveLength(1);
    for (const role of ['user', 'system', 'assistant', 'tool']) {
      const content = new Array(maxContentParts + 1).fill({ type: 'nope' });
      expect(
        chat.failure({ model: 'm', messages: [{ role, content, tool_call_id: 'c' }] }),
      ).toMatchObject({ status: 400, param: 'messages[0].content' });
    }
    const tools = new Array(maxTools + 1).fill({});
    expect(chat.failure({ model: 'm', messages: [user], tools })).toMatchObject({
      status: 400,
      param: 'tools',
    });
    const replayed = {
      role: 'assistant',
      content: null,
      tool_calls: new Array(maxTools + 1).fill({}),
    };
    expect(chat.failure({ model: 'm', messages: [user, replayed] })).toMatchObject({
      status: 400,
      param: 'messages[1].tool_calls',
    });
  });

  it('responses: at most 2048 input items, 64 content parts per item and 128 tools', () => {
    expect(
      responses.failure({ model: 'm', input: new Array(maxMessages + 1).fill({}) }),
    ).toMatchObject({ status: 400, param: 'input' });
    const content = new Array(maxContentParts + 1).fill({ type: 'nope' });
    expect(responses.failure({ model: 'm', input: [{ role: 'user', content }] })).toMatchObject({
      status: 400,
      param: 'input[0].content',
    });
    const output = { type: 'function_call_output', call_id: 'c', output: content };
    expect(responses.failure({ model: 'm', input: [output] })).toMatchObject({
      status: 400,
      param: 'input[0].output',
    });
    expect(
      responses.failure({ model: 'm', input: 'Hi', tools: new Array(maxTools + 1).fill({}) }),
    ).toMatchObject({ status: 400, param: 'tools' });
  });

  it('embeddings: at most 2048 inputs, however they are spelled, and 300,000 token ids; a token-id array is one input', () => {
    const { parse, failure } = schemaCases(embeddingsRequestSchema);
    const refused = failure({ model: 'm', input: new Array(2049).fill({}) });
    expect(refused).toMatchObject({ status: 400, param: 'input' });
    expect(refused.message).toContain('at most 2048 items, but got 2049');
    expect(failure({ model: 'm', input: new Array(2049).fill([1]) })).toMatchObject({
      status: 400,
      param: 'input',
    });
    expect(parse({ model: 'm', input: new Array(5000).fill(1) }).input).toHaveLength(5000);
    // At most 300,000 token ids in all, as the completion API's embeddings take at most 300,000 tokens.
    expect(parse({ model: 'm', input: new Array(300_000).fill(1) }).input).toHaveLength(300_000);
    const ids = failure({ model: 'm', input: new Array(300_001).fill(-1) });
    expect(ids).toMatchObject({ status: 400, param: 'input' });
    expect(ids.message).toContain('at most 300000 in all, but got 300001');
    expect(
      failure({ model: 'm', input: new Array(2000).fill(new Array(200).fill(-1)) }),
    ).toMatchObject({ status: 400, param: 'input' });
  });

  it('compat embed: at most 96 inputs and 64 content blocks per input', () => {
    const { failure } = schemaCases(compatEmbedRequestSchema);
    const base = { model: 'm', input_type: 'search_query' };
    expect(failure({ ...base, inputs: new Array(97).fill({}) })).toMatchObject({
      status: 400,
      param: 'inputs',
    });
    expect(failure({ ...base, texts: new Array(97).fill(7) })).toMatchObject({
      status: 400,
      param: 'texts',
    });
    const content = new Array(maxContentParts + 1).fill({ type: 'nope' });
    expect(failure({ ...base, inputs: [{ content }] })).toMatchObject({
      status: 400,
      param: 'inputs[0].content',
    });
  });

  it('rerank: at most 10,000 documents', () => {
    const { parse, failure } = schemaCases(compatRerankRequestSchema);
    expect(
      parse({ model: 'm', query: 'q', documents: new Array(maxRerankDocuments).fill('d') })
        .documents,
    ).toHaveLength(maxRerankDocuments);
    const refused = failure({
      model: 'm',
      query: 'q',
      documents: new Array(maxRerankDocuments + 1).fill(7),
    });
    expect(refused).toMatchObject({ status: 400, code: 'invalid_parameter', param: 'documents' });
    expect(refused.message).toContain(`at most ${maxRerankDocuments} items`);
  });
});
