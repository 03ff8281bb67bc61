import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../errors/gateway-error.js';
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

  it.each([
    undefined,
    '',
    'Bearer',
    'Bearer ',
    'Basic dXNlcjpwYXNz',
    'Bearer two tokens',
    'Bearersk-abc',
    'Token sk-abc',
    'Bearer\tsk-abc',
  ])('refuses %j', (header) => {
    expect(bearerToken(header)).toBeUndefined();
  });

  it.each([
    'Bearer sk-one, Bearer sk-two',
    'Basic dXNlcjpwYXNz, Bearer sk-abc',
    'Bearer sk-abc,Bearer sk-abc',
  ])('refuses %j, two credentials joined as a repeated header is, with 400', (header) => {
    let thrown: unknown;
    try {
      bearerToken(header);
    } catch (error) {
      thrown = error;
    }
    expect(isGatewayError(thrown) && [thrown.status, thrown.code]).toEqual([
      400,
      'multiple_authorization',
    ]);
  });

  it('reads a token that holds a comma, which a configured key may', () => {
    expect(bearerToken('Bearer sk-a,b')).toBe('sk-a,b');
  });
});
