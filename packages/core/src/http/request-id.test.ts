import { describe, expect, it } from 'vitest';
import type { IdSource } from '../ports/ports.js';
import { requestIdFor } from './request-id.js';

const ids: IdSource = {
  hex: (length) => 'a'.repeat(length),
  digits: (length) => '1'.repeat(length),
};

describe('requestIdFor', () => {
  it.each(['abc', 'req_0123', 'A.b_c:d-e', 'x'.repeat(128), '1'])(
    'echoes the valid incoming id %s',
    (incoming) => {
      expect(requestIdFor(incoming, ids)).toBe(incoming);
    },
  );

  it.each([undefined, '', 'x'.repeat(129), 'has space', 'new\nline', 'quote"', 'ünïcode', 'a/b'])(
    'generates req_ + 24 hex for %j',
    (incoming) => {
      expect(requestIdFor(incoming, ids)).toBe(`req_${'a'.repeat(24)}`);
    },
  );
});
