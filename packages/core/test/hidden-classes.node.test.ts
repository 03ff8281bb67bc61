import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { errorResult, GatewayError } from '../src/index.js';
import { buildChatUpstreamRequest } from '../src/protocols/openai/chat-upstream-request.js';

// Objects built per request must share their hidden class from one request to the next. On Node 20's
// V8 a literal that starts with a spread and then adds a key its source lacks gets a new hidden class
// on every call; those are allocated in the old generation, so each request left garbage there that
// only a full collection frees (chat at 6,500 req/s: 38 KB promoted per scavenge with such objects,
// 7.5 KB without). V8 answers the question itself through its natives syntax, switched on for this
// file's worker before the probe is compiled.
setFlagsFromString('--allow-natives-syntax');
const sameHiddenClass = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

const requestText = JSON.stringify({
  model: 'alpha',
  messages: [{ role: 'user', content: 'Hello' }],
  max_tokens: 128,
  temperature: 0.7,
});

describe('objects built for every request keep one hidden class', () => {
  it('the probe tells shapes apart', () => {
    expect(sameHiddenClass({ a: 1, b: 2 }, { a: 3, b: 4 })).toBe(true);
    expect(sameHiddenClass({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
  });

  it.each([false, true])('the upstream chat body (stream %s)', (stream) => {
    const build = () => buildChatUpstreamRequest({ ...JSON.parse(requestText), stream }, 'served-alpha', { enable_thinking: false }).body;
    // Warm: V8 settles a site's shapes over its first calls.
    for (let call = 0; call < 50; call += 1) build();
    expect(sameHiddenClass(build(), build())).toBe(true);
  });

  it('the headers of an error answer', () => {
    const headers = (id: string) => errorResult(GatewayError.overloaded(), 'native', id).headers;
    for (let call = 0; call < 50; call += 1) headers(`req-${call}`);
    expect(sameHiddenClass(headers('req-a'), headers('req-b'))).toBe(true);
  });
});
