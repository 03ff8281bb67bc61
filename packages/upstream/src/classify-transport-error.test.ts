import { describe, expect, it } from 'vitest';
import { classifyTransportError } from './classify-transport-error.js';

// Shapes as undici and Node's fetch throw them (a connect timeout cannot be provoked on loopback
// without a network namespace, so its mapping is checked here).
const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });

describe('classifyTransportError', () => {
  it.each([
    [
      coded('UND_ERR_CONNECT_TIMEOUT'),
      'headers',
      { kind: 'timeout', phase: 'connect', retryable: true },
    ],
    [
      fetchFailed(coded('UND_ERR_CONNECT_TIMEOUT')),
      'headers',
      { kind: 'timeout', phase: 'connect', retryable: true },
    ],
    [
      fetchFailed(coded('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:8000')),
      'headers',
      { kind: 'refused', phase: 'connect', retryable: true },
    ],
    [
      fetchFailed(coded('ENOTFOUND', 'getaddrinfo ENOTFOUND vllm.internal')),
      'headers',
      { kind: 'refused', phase: 'connect', retryable: true },
    ],
    [
      coded('UND_ERR_SOCKET', 'other side closed'),
      'headers',
      { kind: 'reset', phase: 'headers', retryable: true },
    ],
    [coded('ECONNRESET'), 'body', { kind: 'reset', phase: 'body', retryable: false }],
    [
      new TypeError('terminated', { cause: coded('UND_ERR_SOCKET') }),
      'body',
      { kind: 'reset', phase: 'body', retryable: false },
    ],
    [
      coded('UND_ERR_HEADERS_TIMEOUT'),
      'headers',
      { kind: 'timeout', phase: 'headers', retryable: false },
    ],
    [
      Object.assign(new Error('aborted'), { name: 'AbortError' }),
      'body',
      { kind: 'aborted', phase: 'body' },
    ],
    [new Error('something odd'), 'body', { kind: 'protocol', phase: 'body', retryable: false }],
  ] as const)('maps %o at %s', (error, phase, expected) => {
    expect(classifyTransportError(error, phase)).toMatchObject(expected);
  });

  it('never carries the address or host of the original error in its message or cause', () => {
    const mapped = classifyTransportError(
      fetchFailed(coded('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:8000')),
      'headers',
    );
    expect(JSON.stringify({ message: mapped.message, cause: mapped.cause })).not.toMatch(
      /10\.0\.0\.5|8000/,
    );
    expect(mapped.cause).toEqual({ code: 'ECONNREFUSED' });
  });
});
