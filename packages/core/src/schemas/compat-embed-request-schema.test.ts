import { describe, expect, it } from 'vitest';
import { schemaCases } from '../../test/schema-cases.js';
import { compatEmbedRequestSchema } from './compat-embed-request-schema.js';

const base = { model: 'alpha3-vl-embedding-8b', input_type: 'search_document' };
const textInput = { content: [{ type: 'text', text: 'hello' }] };

const { parse, failure } = schemaCases(compatEmbedRequestSchema);

describe('compatEmbedRequestSchema', () => {
  it('accepts inputs of text and image_url blocks', () => {
    const request = parse({
      ...base,
      inputs: [
        textInput,
        {
          content: [
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
            { type: 'text', text: 'x' },
          ],
        },
      ],
    });
    expect(request.inputs).toHaveLength(2);
    expect(request.embedding_types).toEqual(['float']);
  });

  it('accepts texts, as the official Cohere SDK sends them', () => {
    expect(parse({ ...base, texts: ['a', 'b'] }).texts).toEqual(['a', 'b']);
  });

  it('wants exactly one of inputs and texts', () => {
    expect(failure({ ...base })).toMatchObject({
      status: 400,
      code: 'missing_parameter',
      param: 'inputs',
    });
    expect(failure({ ...base, inputs: [textInput], texts: ['a'] })).toMatchObject({
      status: 400,
      param: 'texts',
    });
  });

  it('refuses empty or oversized lists and empty texts', () => {
    expect(failure({ ...base, inputs: [] })).toMatchObject({ status: 400, param: 'inputs' });
    expect(failure({ ...base, texts: [] })).toMatchObject({ status: 400, param: 'texts' });
    expect(failure({ ...base, texts: ['a', ''] })).toMatchObject({
      status: 400,
      param: 'texts[1]',
    });
    expect(failure({ ...base, texts: new Array<string>(97).fill('a') })).toMatchObject({
      status: 400,
      param: 'texts',
    });
    expect(parse({ ...base, texts: new Array<string>(96).fill('a') }).texts).toHaveLength(96);
    expect(failure({ ...base, inputs: [{ content: [] }] })).toMatchObject({
      status: 400,
      param: 'inputs[0].content',
    });
  });

  it('names a bad block by its path', () => {
    expect(
      failure({ ...base, inputs: [textInput, { content: [{ type: 'video', url: 'x' }] }] }),
    ).toMatchObject({
      status: 400,
      param: 'inputs[1].content[0].type',
    });
    expect(
      failure({ ...base, inputs: [{ content: [{ type: 'image_url', image_url: {} }] }] }),
    ).toMatchObject({
      status: 400,
      code: 'missing_parameter',
      param: 'inputs[0].content[0].image_url.url',
    });
    expect(
      failure({ ...base, inputs: [{ content: [{ type: 'text', text: 'a', extra: 1 }] }] }),
    ).toMatchObject({
      status: 400,
      code: 'unknown_parameter',
      param: 'inputs[0].content[0].extra',
    });
  });

  it('requires input_type and accepts search_document, search_query and image', () => {
    expect(failure({ model: 'm', texts: ['a'] })).toMatchObject({
      status: 400,
      code: 'missing_parameter',
      param: 'input_type',
    });
    for (const inputType of ['search_document', 'search_query', 'image'])
      expect(parse({ ...base, input_type: inputType, texts: ['a'] }).input_type).toBe(inputType);
  });

  it('says classification and clustering are not supported', () => {
    for (const inputType of ['classification', 'clustering']) {
      const error = failure({ ...base, input_type: inputType, texts: ['a'] });
      expect(error).toMatchObject({ status: 400, param: 'input_type' });
      expect(error.message).toContain('not supported');
    }
    expect(failure({ ...base, input_type: 'query', texts: ['a'] })).toMatchObject({
      status: 400,
      param: 'input_type',
    });
  });

  it('accepts float and base64 embedding types and says the others are not supported', () => {
    expect(
      parse({ ...base, texts: ['a'], embedding_types: ['float', 'base64'] }).embedding_types,
    ).toEqual(['float', 'base64']);
    for (const type of ['int8', 'uint8', 'binary', 'ubinary']) {
      const error = failure({ ...base, texts: ['a'], embedding_types: ['float', type] });
      expect(error).toMatchObject({ status: 400, param: 'embedding_types[1]' });
      expect(error.message).toContain('not supported');
    }
    expect(failure({ ...base, texts: ['a'], embedding_types: [] })).toMatchObject({
      status: 400,
      param: 'embedding_types',
    });
  });

  it('takes output_dimension as a positive integer, truncate as NONE/START/END and max_tokens as a positive integer', () => {
    expect(
      parse({ ...base, texts: ['a'], output_dimension: 256, truncate: 'START', max_tokens: 10 }),
    ).toMatchObject({
      output_dimension: 256,
      truncate: 'START',
      max_tokens: 10,
    });
    expect(failure({ ...base, texts: ['a'], output_dimension: 25.5 })).toMatchObject({
      status: 400,
      param: 'output_dimension',
    });
    expect(failure({ ...base, texts: ['a'], truncate: 'LEFT' })).toMatchObject({
      status: 400,
      param: 'truncate',
    });
    expect(failure({ ...base, texts: ['a'], max_tokens: 0 })).toMatchObject({
      status: 400,
      param: 'max_tokens',
    });
  });

  it('refuses unknown parameters such as images by name', () => {
    expect(
      failure({ ...base, texts: ['a'], images: ['data:image/png;base64,AAAA'] }),
    ).toMatchObject({
      status: 400,
      code: 'unknown_parameter',
      param: 'images',
    });
  });
});
