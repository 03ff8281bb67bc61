import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { toJsonReply, type ContractClient } from './contract-client.js';

const postRoutes = [
  '/v1/responses',
  '/v1/chat/completions',
  '/v1/embeddings',
  '/compat/v2/embed',
  '/compat/v2/rerank',
  '/v1/images/generations',
  '/v1/images/edits',
  '/tokenize',
];

// Bodies that are not valid requests: arbitrary JSON values, arbitrary text, and objects with a model but junk elsewhere.
// Built on first use, not on import: fast-check builds its table of every code point for the binary
// string here, seconds of CPU that every test file importing the kit would pay.
function hostileBody(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.json(),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc
      .record(
        {
          model: fc.constantFrom('general-std', 'gamma-m3', 'alpha-image'),
          input: fc.anything(),
          messages: fc.anything(),
          prompt: fc.anything(),
        },
        { requiredKeys: ['model'] },
      )
      .map((value) => JSON.stringify(value)),
  );
}

/** fault-matrix row 1 (a smaller run): hostile bodies never produce a 5xx; every refusal is an envelope with a request id. */
export function describeFuzzContract(client: () => ContractClient): void {
  describe('hostile bodies (fast-check)', () => {
    let bodies: fc.Arbitrary<string>;
    // In a hook, so that building the arbitrary does not count against the test's own time limit.
    beforeAll(() => {
      bodies = hostileBody();
    });

    it('answers every malformed body of every POST route with a 4xx envelope', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...postRoutes), bodies, async (path, body) => {
          const reply = await toJsonReply(await client().post(path, body));
          expect(reply.headers.get('x-request-id')).toBeTruthy();
          // The generator can stumble on a valid request (e.g. a responses body with an empty input):
          // that one is served, and what is asserted is that nothing is ever a 5xx.
          if (reply.status < 300) return;
          expect([400, 404, 413, 415, 422]).toContain(reply.status);
          const shape = reply.json as Record<string, unknown>;
          if (path.startsWith('/compat/'))
            expect(Object.keys(shape).sort()).toEqual(['id', 'message']);
          else expect(Object.keys(shape)).toEqual(['error']);
        }),
        { numRuns: 400 },
      );
      expect((await client().request('GET', '/healthz', { anonymous: true })).status).toBe(200);
    });
  });
}
