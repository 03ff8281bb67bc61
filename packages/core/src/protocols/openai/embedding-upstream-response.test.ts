import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useWasmTextCheck } from '../../transforms/json-text-wasm-check.js';
import { readEmbeddingUpstreamResponse } from './embedding-upstream-response.js';
import type { UpstreamEmbeddings } from '../../transforms/upstream-embeddings.js';

function failure(run: () => unknown) {
  try {
    run();
  } catch (error) {
    return error as { status: number; code: string; message: string; cause?: unknown };
  }
  throw new Error('expected a failure');
}

// vLLM's EmbeddingResponse.
const vllmBody = {
  id: 'embd-0a1b2c',
  object: 'list',
  created: 1,
  model: 'served',
  data: [
    { index: 1, object: 'embedding', embedding: [0.5, 0.25] },
    { index: 0, object: 'embedding', embedding: [1, 0] },
  ],
  usage: { prompt_tokens: 7, total_tokens: 7, completion_tokens: 0, prompt_tokens_details: null },
};

// TEI's OpenAI-compatible answer has no id and no created.
const teiBody = {
  object: 'list',
  data: [{ object: 'embedding', embedding: [3, 4], index: 0 }],
  model: 'x',
  usage: { prompt_tokens: 2, total_tokens: 2 },
};

const read = (body: unknown, count: number, dimensions?: number) =>
  readEmbeddingUpstreamResponse(
    new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body)),
    count,
    dimensions,
  );
const numberTexts = (result: UpstreamEmbeddings) =>
  result.vectors.map((vector) =>
    new TextDecoder().decode(vector.answer.range(vector.start, vector.end)),
  );
const values = (result: UpstreamEmbeddings) =>
  numberTexts(result).map((text) => JSON.parse(`[${text}]`) as number[]);

// Number lists are checked by WebAssembly where the runtime compiles it (Node) and by the scanner's
// JavaScript loop elsewhere (edge runtimes): every case runs with each.
describe.each(['WebAssembly', 'JavaScript'])(
  'readEmbeddingUpstreamResponse, lists checked in %s',
  (checker) => {
    beforeAll(() => useWasmTextCheck(checker === 'WebAssembly'));
    afterAll(() => useWasmTextCheck(true));

    it('orders vectors by index and reads the vLLM id and usage', () => {
      const result = read(vllmBody, 2);
      expect(result).toMatchObject({ id: 'embd-0a1b2c', promptTokens: 7, totalTokens: 7 });
      expect(values(result)).toEqual([
        [1, 0],
        [0.5, 0.25],
      ]);
      expect(result.vectors.map((vector) => vector.length)).toEqual([2, 2]);
    });

    it('reads a TEI answer, which has no id', () => {
      const result = read(teiBody, 1);
      expect(result).toMatchObject({ id: undefined, promptTokens: 2, totalTokens: 2 });
      expect(values(result)).toEqual([[3, 4]]);
    });

    it('does not pass on an id of another form', () => {
      expect(read({ ...teiBody, id: 'cmpl-xyz' }, 1).id).toBeUndefined();
    });

    it('keeps the number text as the upstream wrote it, in every JSON form and with blanks', () => {
      const text =
        '{ "data" : [ { "embedding" : [ -0.0, 1e-05,\n-2.5E+3 ,7,0 , -1.25e-7 ], "index" : 0 } ], "usage": {"prompt_tokens": 1}, "extra": {"a": [true, false, null, "x\\"\\u00e9"]} }';
      const result = read(text, 1, 6);
      expect(numberTexts(result)).toEqual([' -0.0, 1e-05,\n-2.5E+3 ,7,0 , -1.25e-7 ']);
      expect(result.vectors[0]?.length).toBe(6);
      expect(result.totalTokens).toBe(1);
    });

    it('reads an empty vector and fields with escapes', () => {
      const result = read(
        '{"d\\u0061ta":[{"index":0,"embedding":[]}],"usage":{"prompt_tokens":0}}',
        1,
      );
      expect(result.vectors[0]?.length).toBe(0);
    });

    it('is a 502 for a body of the wrong shape', () => {
      expect(failure(() => read([[1, 2]], 1))).toMatchObject({
        status: 502,
        code: 'upstream_error',
      });
      expect(
        failure(() =>
          read({ data: [{ index: 0, embedding: 'AAAA' }], usage: { prompt_tokens: 1 } }, 1),
        ),
      ).toMatchObject({ status: 502 });
      expect(failure(() => read({ data: [{ index: 0, embedding: [1] }] }, 1))).toMatchObject({
        status: 502,
      });
      expect(failure(() => read({ usage: { prompt_tokens: 1 } }, 0))).toMatchObject({
        status: 502,
      });
      expect(
        failure(() => read({ data: [{ index: 0 }], usage: { prompt_tokens: 1 } }, 1)),
      ).toMatchObject({ status: 502 });
      expect(
        failure(() =>
          read({ data: [{ index: '0', embedding: [1] }], usage: { prompt_tokens: 1 } }, 1),
        ),
      ).toMatchObject({ status: 502 });
    });

    it('is a 502 naming the place for a vector holding anything but numbers', () => {
      for (const vector of [
        '[1,"2"]',
        '[1,null]',
        '[1,,2]',
        '[1,2,]',
        '[01]',
        '[1.]',
        '[.5]',
        '[+1]',
        '[1e]',
        '[NaN]',
        '[-]',
        '[1 2]',
        '[[1]]',
      ]) {
        const error = failure(() =>
          read(`{"data":[{"index":0,"embedding":${vector}}],"usage":{"prompt_tokens":1}}`, 1),
        );
        expect(error, vector).toMatchObject({
          status: 502,
          message: 'The model server answered with an unexpected embeddings body.',
        });
        expect(JSON.stringify(error.cause), vector).toContain(
          'data[0].embedding: expected an array of numbers',
        );
      }
    });

    it('reads a base64 vector only where base64 was asked for, counting its float32 values with and without padding', () => {
      const base64Of = (values: readonly number[]) =>
        btoa(String.fromCharCode(...new Uint8Array(Float32Array.from(values).buffer)));
      for (const values of [[1], [1, 2], [1, 2, 3]]) {
        const text = JSON.stringify({
          data: [{ index: 0, embedding: base64Of(values) }],
          usage: { prompt_tokens: 1 },
        });
        const bytes = new TextEncoder().encode(text);
        const vector = readEmbeddingUpstreamResponse(bytes, 1, values.length, true).vectors[0];
        expect(vector).toMatchObject({ base64: true, length: values.length });
        expect(new TextDecoder().decode(bytes.subarray(vector?.start, vector?.end))).toBe(
          base64Of(values),
        );
        expect(failure(() => readEmbeddingUpstreamResponse(bytes, 1, values.length))).toMatchObject(
          { status: 502 },
        );
      }
      for (const embedding of ['AAAA', 'AAA', 'AA=A', 'AAA*', 'AAAAAAAAAAAA', ' AAAAAA']) {
        const bytes = new TextEncoder().encode(
          JSON.stringify({ data: [{ index: 0, embedding }], usage: { prompt_tokens: 1 } }),
        );
        expect(
          failure(() => readEmbeddingUpstreamResponse(bytes, 1, undefined, true)),
          embedding,
        ).toMatchObject({ status: 502 });
      }
    });

    it('reads a long base64 vector to its end, and refuses every byte outside the alphabet at every place in it', () => {
      // Every character of the alphabet at every place of a 16-byte lane: the check reads 16 and 64 at a time.
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
      const good = `${alphabet}${alphabet.slice(5)}${alphabet.slice(0, 5)}${alphabet.slice(11)}${alphabet.slice(0, 11)}${alphabet}`;
      const answer = (embedding: Uint8Array) => {
        const head = new TextEncoder().encode('{"data":[{"index":0,"embedding":"');
        const tail = new TextEncoder().encode('"}],"usage":{"prompt_tokens":1}}');
        const bytes = new Uint8Array(head.length + embedding.length + tail.length);
        bytes.set(head);
        bytes.set(embedding, head.length);
        bytes.set(tail, head.length + embedding.length);
        return bytes;
      };
      const goodBytes = new TextEncoder().encode(good);
      const bytes = answer(goodBytes);
      const vector = readEmbeddingUpstreamResponse(bytes, 1, ((good.length / 4) * 3) / 4, true)
        .vectors[0];
      expect(new TextDecoder().decode(bytes.subarray(vector?.start, vector?.end))).toBe(good);
      const wrongBytes = Array.from({ length: 256 }, (_, value) => value).filter(
        (value) => !alphabet.includes(String.fromCharCode(value)),
      );
      expect(wrongBytes).toHaveLength(192);
      for (let place = 0; place < good.length; place += 1) {
        for (const wrong of wrongBytes) {
          const broken = goodBytes.slice();
          broken[place] = wrong;
          expect(
            failure(() => readEmbeddingUpstreamResponse(answer(broken), 1, undefined, true)),
            `byte ${wrong} at ${place}`,
          ).toMatchObject({ status: 502 });
        }
      }
      // Some 57,000 refusals, in the edge runtime too: the timeout bounds a hang on a loaded machine.
    }, 30_000);

    it('reads long fractions wherever the answer sits in its buffer, and finds a wrong byte at every place in them', () => {
      const numbers = ['0.12345678901234567', '-0.00098765432109876', '12.5e-3', '7', '-0.5'];
      const answer = (list: string) =>
        `{"data":[{"index":0,"embedding":[${list}]}],"usage":{"prompt_tokens":1}}`;
      const encoder = new TextEncoder();
      // The answer at each offset of a larger buffer, with digits before and after it.
      const at = (text: string, offset: number) => {
        const buffer = new Uint8Array(offset + text.length + 16).fill(0x37);
        buffer.set(encoder.encode(text), offset);
        return buffer.subarray(offset, offset + text.length);
      };
      for (let offset = 0; offset < 8; offset += 1) {
        const result = readEmbeddingUpstreamResponse(
          at(answer(numbers.join(',')), offset),
          1,
          numbers.length,
        );
        expect(numberTexts(result), `offset ${offset}`).toEqual([numbers.join(',')]);
        const first = numbers[0] ?? '';
        // `:` and `/` sit next to the digits in ASCII; `x` is far from them.
        for (let place = 2; place < first.length; place += 1) {
          for (const wrong of [':', '/', 'x']) {
            const broken = `${first.slice(0, place)}${wrong}${first.slice(place + 1)}`;
            expect(
              failure(() =>
                readEmbeddingUpstreamResponse(at(answer(broken), offset), 1, undefined),
              ),
              `offset ${offset}, ${broken}`,
            ).toMatchObject({ status: 502 });
          }
        }
        // Cut inside a fraction: the digits that follow in the buffer are not part of the answer.
        const whole = answer(first);
        const cut = whole.slice(0, whole.indexOf(first) + 12);
        expect(
          failure(() => readEmbeddingUpstreamResponse(at(cut, offset), 1, undefined)),
          `offset ${offset}, cut`,
        ).toMatchObject({ status: 502 });
      }
    });

    it('accepts a number list exactly when JSON.parse does, and counts it the same, for lists with one to three bytes changed', () => {
      // A fixed seed: the same 4,000 lists on every run. Most have no blanks, as vLLM and TEI write them,
      // and are long enough that a change lands at every place of a 16-byte block; one in four is long
      // enough (over 256 bytes) that WebAssembly reads it as two halves, with changes on either side.
      let seed = 0x2545f491;
      const random = (below: number) => {
        seed ^= seed << 13;
        seed ^= seed >>> 17;
        seed ^= seed << 5;
        return (seed >>> 0) % below;
      };
      const forms = [
        '-0.015006982721388340',
        '0.04462505504488945',
        '0',
        '-0',
        '12',
        '7.5',
        '1e5',
        '-1.5E-07',
        '3.25e+2',
        '0.5e05',
        '10',
      ];
      const bytes = '0123456789-+.eE,, \n]';
      const answer = (list: string) =>
        `{"data":[{"index":0,"embedding":[${list}]}],"usage":{"prompt_tokens":1}}`;
      let refused = 0;
      for (let round = 0; round < 4_000; round += 1) {
        const count = random(4) === 0 ? 40 + random(160) : 1 + random(40);
        const separator = random(8) === 0 ? ', ' : ',';
        let list = Array.from({ length: count }, () => forms[random(forms.length)]).join(separator);
        for (let change = 1 + random(3); change > 0; change -= 1) {
          const place = random(list.length + 1);
          const byte = bytes[random(bytes.length)] ?? '';
          const kind = random(3);
          list =
            kind === 0
              ? list.slice(0, place) + byte + list.slice(place + 1)
              : kind === 1
                ? list.slice(0, place) + byte + list.slice(place)
                : list.slice(0, place) + list.slice(place + 1);
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(`[${list}]`);
        } catch {
          parsed = undefined;
        }
        if (Array.isArray(parsed)) {
          const result = read(answer(list), 1);
          expect(result.vectors[0]?.length, list).toBe(parsed.length);
          expect(numberTexts(result), list).toEqual([list]);
        } else {
          refused += 1;
          expect(
            failure(() => read(answer(list), 1)),
            list,
          ).toMatchObject({ status: 502 });
        }
      }
      // Both kinds are well represented.
      expect(refused).toBeGreaterThan(1_000);
      expect(refused).toBeLessThan(3_500);
    });

    it('is a 502 for text that is not JSON', () => {
      const whole = JSON.stringify(vllmBody);
      for (const text of [
        '',
        'not json',
        whole.slice(0, whole.length - 1),
        whole.slice(0, 60),
        `${whole}x`,
        whole.replace('"list"', "'list'"),
        whole.replace('"id"', 'id'),
      ]) {
        expect(
          failure(() => read(text, 2)),
          text,
        ).toMatchObject({ status: 502, code: 'upstream_error' });
      }
    });

    it('is a 502 when the count, the indexes or the dimensions do not match the request', () => {
      expect(failure(() => read(vllmBody, 3))).toMatchObject({ status: 502 });
      const repeated = { ...vllmBody, data: [vllmBody.data[0], vllmBody.data[0]] };
      expect(failure(() => read(repeated, 2))).toMatchObject({ status: 502 });
      expect(failure(() => read(vllmBody, 2, 3))).toMatchObject({
        status: 502,
        message: 'The model server returned 2 dimensions where 3 were requested.',
      });
      expect(read(vllmBody, 2, 2).vectors).toHaveLength(2);
    });
  },
);

// The scanner against the plain reference it replaces, JSON.parse: any answer a model server could
// write (numbers in every JSON form, any index order, any layout) reads as the same vectors.
describe.each(['WebAssembly', 'JavaScript'])(
  'readEmbeddingUpstreamResponse against JSON.parse, lists checked in %s',
  (checker) => {
    beforeAll(() => useWasmTextCheck(checker === 'WebAssembly'));
    afterAll(() => useWasmTextCheck(true));

    const number = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.float({ noNaN: true, noDefaultInfinity: true }).map(Math.fround),
      fc.integer(),
    );
    const answer = fc
      .array(fc.array(number, { maxLength: 40 }), { minLength: 1, maxLength: 6 })
      .chain((vectors) =>
        fc.record({
          vectors: fc.constant(vectors),
          order: fc.shuffledSubarray(
            vectors.map((_, index) => index),
            { minLength: vectors.length, maxLength: vectors.length },
          ),
          indent: fc.constantFrom(undefined, 0, 1, 2, '\t'),
        }),
      );

    it('reads every vector as JSON.parse reads it, ordered by index', () => {
      fc.assert(
        fc.property(answer, ({ vectors, order, indent }) => {
          const body = JSON.stringify(
            {
              ...vllmBody,
              data: order.map((index) => ({
                index,
                object: 'embedding',
                embedding: vectors[index],
              })),
            },
            null,
            indent,
          );
          const reference = (
            JSON.parse(body) as { data: { index: number; embedding: number[] }[] }
          ).data
            .sort((a, b) => a.index - b.index)
            .map((item) => item.embedding);
          expect(values(read(body, vectors.length))).toEqual(reference);
        }),
        { numRuns: 500 },
      );
    });
  },
);
