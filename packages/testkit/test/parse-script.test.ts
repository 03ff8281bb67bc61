import { describe, expect, it } from 'vitest';
import { parseScript } from '../src/parse-script.js';

describe('parseScript', () => {
  it('reads the fault scripts', () => {
    expect(parseScript('ok:5:20')).toEqual({ kind: 'ok', chunks: 5, delayMs: 20 });
    expect(parseScript('ok')).toEqual({ kind: 'ok', chunks: 3, delayMs: 0 });
    expect(parseScript('stall-after:3')).toEqual({ kind: 'stall-after', chunks: 3 });
    expect(parseScript('reset-after:0')).toEqual({ kind: 'reset-after', chunks: 0 });
    expect(parseScript('status:503')).toEqual({ kind: 'status', status: 503, body: 'json' });
    expect(parseScript('status:200:{"a":1}')).toEqual({
      kind: 'status',
      status: 200,
      body: '{"a":1}',
    });
    expect(parseScript('fail-then-ok')).toEqual({ kind: 'fail-then-ok' });
  });

  it('refuses anything else, so that a real model name is never taken for a script', () => {
    for (const text of [
      'alpha36-35b-a3b-instruct',
      'ok:x',
      'status:99',
      'stall-after',
      'huge:1',
      '',
    ])
      expect(parseScript(text), text).toBeUndefined();
  });
});
