import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../errors/gateway-error.js';
import { parseJson } from './parse-json.js';
import { parseJsonWithSlices, sliceableStringLength } from './parse-json-with-slices.js';

const long = (fill: string, extra = 0) =>
  fill.repeat(Math.ceil((sliceableStringLength + extra) / fill.length));
const dataUrl = `data:image/png;base64,${long('iVBORw0KGgo+/=', 10)}`;

function outcome(text: string): unknown {
  try {
    return { value: parseJson(text) };
  } catch (error) {
    if (isGatewayError(error))
      return { status: error.status, code: error.code, message: error.message };
    throw error;
  }
}

function plainOutcome(text: string): unknown {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return {
      status: 400,
      code: 'invalid_json',
      message: `The request body is not valid JSON: ${(error as Error).message}`,
    };
  }
}

// Bodies whose long string values can be taken as slices, and bodies where they cannot; every one
// must parse to exactly what JSON.parse gives.
const bodies: Record<string, string> = {
  'an image edit': JSON.stringify({
    model: 'm',
    prompt: 'p',
    images: [{ image_url: dataUrl }, { image_url: dataUrl.slice(0, -4) }],
    size: '1x1',
  }),
  'a top-level long string': JSON.stringify(dataUrl),
  'whitespace around tokens': `{ "images" : [ { "image_url" :\n "${dataUrl}" } ] , "n" : 1 }`,
  'a long key': `{"${long('k')}":"${dataUrl}","a":"b"}`,
  'a long key followed by whitespace': `{"${long('k')}"  \n:1}`,
  'escapes in a long string': JSON.stringify({
    text: `${long('line "quoted" \\ back\n')}\u00e9\ud83d\ude00`,
    url: dataUrl,
  }),
  'an escaped quote at the end': `{"a":"${long('x')}\\"","b":"${dataUrl}"}`,
  'an escaped backslash before the closing quote': `{"a":"${long('x')}\\\\","b":"${dataUrl}"}`,
  'short strings with escapes before a long one': `{"a":"\\"\\\\\\n","b":["\\u00e9"],"c":"${dataUrl}"}`,
  'non-ASCII characters in a long string': JSON.stringify({ text: long('déjà vu 😀 ') }),
  'a NUL escape elsewhere': `{"a":"\\u0000","b":"${dataUrl}"}`,
  'a string that looks like a marker': `{"a":"\\u00000","b":"${dataUrl}"}`,
};

const broken: Record<string, string> = {
  'a raw control character in a long string': `{"a":"${long('x')}\u0001"}`,
  'a raw newline in a long string': `{"a":"${long('x')}\nx"}`,
  'an unterminated long string': `{"a":"${long('x')}`,
  'a missing comma after a long string': `{"a":"${dataUrl}" "b":1}`,
  'a trailing comma after a long string': `{"a":["${dataUrl}",]}`,
  'a bad token before a long string': `{"a":x"${dataUrl}"}`,
  'a stray quote': `{"a":"${dataUrl}""}`,
};

describe('parseJson with long string values', () => {
  it.each(Object.entries(bodies))('parses %s exactly as JSON.parse does', (_name, text) => {
    expect(text.length).toBeGreaterThan(sliceableStringLength);
    expect(outcome(text)).toEqual(plainOutcome(text));
  });

  it.each(Object.entries(broken))('refuses %s with the error JSON.parse gives', (_name, text) => {
    const expected = plainOutcome(text);
    expect(expected).toMatchObject({ status: 400, code: 'invalid_json' });
    expect(outcome(text)).toEqual(expected);
  });

  it('takes the long values from the text (the fast path applies) for an image edit', () => {
    const text = bodies['an image edit'] ?? '';
    expect(parseJsonWithSlices(text)).toEqual(JSON.parse(text));
  });

  it('leaves short bodies, long keys and bodies with a NUL escape to the plain parser', () => {
    expect(parseJsonWithSlices('{"a":"b"}')).toBeUndefined();
    expect(parseJsonWithSlices(`{"${long('k')}":1}`)).toBeUndefined();
    expect(parseJsonWithSlices(bodies['a NUL escape elsewhere'] ?? '')).toBeUndefined();
    expect(
      parseJsonWithSlices(broken['a missing comma after a long string'] ?? ''),
    ).toBeUndefined();
  });

  it('still refuses a poisoned key whose value is a long string', () => {
    expect(outcome(`{"__proto__":"${dataUrl}"}`)).toMatchObject({
      status: 400,
      code: 'invalid_json',
      message: expect.stringContaining('__proto__'),
    });
    expect(
      outcome(`{"images":[{"image_url":"${dataUrl}","constructor":{"prototype":{"p":1}}}]}`),
    ).toMatchObject({
      status: 400,
      code: 'invalid_json',
      message: expect.stringContaining('constructor.prototype'),
    });
  });
});
