import { describe, expect, it } from 'vitest';
import { bearerToken } from './bearer-token.js';

describe('bearerToken', () => {
  it.each([
    ['Bearer sk-abc', 'sk-abc'],
    ['bearer sk-abc', 'sk-abc'],
    ['BEARER sk-abc', 'sk-abc'],
    ['Bearer  sk-abc ', 'sk-abc'],
    ['Bearer a.b_c~d+e/f=', 'a.b_c~d+e/f='],
  ])('reads %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  it.each([undefined, '', 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Bearer two tokens', 'Bearersk-abc', 'Token sk-abc', 'Bearer\tsk-abc'])(
    'refuses %j',
    (header) => {
      expect(bearerToken(header)).toBeUndefined();
    },
  );
});
