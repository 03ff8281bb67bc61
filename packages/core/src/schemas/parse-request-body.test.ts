import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isGatewayError } from '../errors/gateway-error.js';
import { formatParamPath, parseRequestBody } from './parse-request-body.js';

const schema = z.strictObject({
  model: z.string(),
  messages: z.array(z.strictObject({ role: z.string(), content: z.string() })).min(1),
  top_k: z.int().min(1).optional(),
});

function failure(body: string | undefined) {
  try {
    parseRequestBody(schema, body);
  } catch (error) {
    if (isGatewayError(error))
      return { status: error.status, code: error.code, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a failure');
}

describe('parseRequestBody', () => {
  it('returns the parsed value of a valid body', () => {
    expect(
      parseRequestBody(
        schema,
        '{"model":"m","messages":[{"role":"user","content":"hi"}],"top_k":3}',
      ),
    ).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      top_k: 3,
    });
  });

  it('names a nested field with a wrong type', () => {
    expect(
      failure(
        '{"model":"m","messages":[{"role":"user","content":"a"},{"role":"user","content":3}]}',
      ),
    ).toMatchObject({
      status: 400,
      code: 'invalid_parameter',
      param: 'messages[1].content',
    });
  });

  it('names a missing required field', () => {
    expect(failure('{"messages":[{"role":"user","content":"a"}]}')).toMatchObject({
      status: 400,
      code: 'missing_parameter',
      param: 'model',
    });
  });

  it('rejects an unknown parameter by name, so typos do not pass silently', () => {
    expect(
      failure('{"model":"m","messages":[{"role":"user","content":"a"}],"tpo_k":1}'),
    ).toMatchObject({
      status: 400,
      code: 'unknown_parameter',
      param: 'tpo_k',
    });
  });

  it('refuses an out-of-range value', () => {
    expect(
      failure('{"model":"m","messages":[{"role":"user","content":"a"}],"top_k":0}'),
    ).toMatchObject({ status: 400, param: 'top_k' });
  });

  it('refuses prototype poisoning and leaves Object.prototype untouched', () => {
    expect(failure('{"__proto__":{"p":1}}')).toMatchObject({ status: 400, code: 'invalid_json' });
    expect(failure('{"model":"m","constructor":{"prototype":{"p":1}}}')).toMatchObject({
      status: 400,
      code: 'invalid_json',
    });
    expect(({} as Record<string, unknown>).p).toBeUndefined();
  });

  it('answers malformed, empty and absent bodies with invalid_json', () => {
    expect(failure('{"model":')).toMatchObject({ status: 400, code: 'invalid_json' });
    expect(failure('')).toMatchObject({ status: 400, code: 'invalid_json' });
    expect(failure(undefined)).toMatchObject({ status: 400, code: 'invalid_json' });
  });

  it('answers deeply nested JSON with a 400, not a crash', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    expect(failure(`{"model":"m","messages":${deep}}`).status).toBe(400);
  });
});

describe('formatParamPath', () => {
  it('writes indices in brackets and keys with dots', () => {
    expect(formatParamPath(['input', 0, 'content', 1, 'image_url'])).toBe(
      'input[0].content[1].image_url',
    );
  });
});
