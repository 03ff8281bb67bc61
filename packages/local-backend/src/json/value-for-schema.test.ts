import { describe, expect, it } from 'vitest';
import { valueForSchema } from './value-for-schema.js';

const words = ['harbour', 'lights', 'at', 'night'];

describe('valueForSchema', () => {
  it('keeps numbers inside exclusive bounds, draft 4 boolean forms included, and on multipleOf', () => {
    const open = valueForSchema(
      { type: 'number', exclusiveMinimum: 2, exclusiveMaximum: 3 },
      words,
    ) as number;
    expect(open > 2 && open < 3).toBe(true);
    expect(valueForSchema({ type: 'integer', exclusiveMinimum: 4 }, words)).toBe(5);
    expect(valueForSchema({ type: 'integer', maximum: -3, exclusiveMaximum: true }, words)).toBe(
      -4,
    );
    expect(valueForSchema({ type: 'number', minimum: 7, exclusiveMinimum: true }, words)).toBe(8);
    expect(valueForSchema({ type: 'integer', minimum: 11, multipleOf: 4 }, words)).toBe(12);
    expect(valueForSchema({ type: 'number', maximum: -0.5 }, words)).toBe(-0.5);
  });

  it('cuts and extends strings to their length bounds, counting characters not UTF-16 units', () => {
    expect(valueForSchema({ type: 'string', maxLength: 4 }, words)).toBe('harb');
    expect(
      [...(valueForSchema({ type: 'string', minLength: 50 }, ['🚀'.repeat(3)]) as string)].length,
    ).toBeGreaterThanOrEqual(50);
    expect(valueForSchema({ type: 'string', maxLength: 0 }, words)).toBe('');
  });

  it('reads draft 7 tuples (items as a list) and stops a schema that recurses through required properties', () => {
    const tuple = valueForSchema(
      { type: 'array', items: [{ type: 'integer' }, { type: 'boolean' }], additionalItems: false },
      words,
    ) as unknown[];
    expect(tuple).toHaveLength(2);
    expect(Number.isInteger(tuple[0])).toBe(true);
    expect(typeof tuple[1]).toBe('boolean');
    const endless = { type: 'object', properties: { next: { $ref: '#' } }, required: ['next'] };
    expect(JSON.stringify(valueForSchema(endless, words)).length).toBeLessThan(2000);
    // Cycles with no value in between end too.
    expect(valueForSchema({ allOf: [{ $ref: '#' }] }, words)).toBeDefined();
    expect(valueForSchema({ anyOf: [{ $ref: '#' }] }, words)).toBeDefined();
    expect(valueForSchema({ $ref: '#' }, words)).toBeDefined();
    expect(
      valueForSchema({ allOf: [{ $ref: '#' }, { $ref: '#' }, { $ref: '#' }] }, words),
    ).toBeDefined();
    expect(
      valueForSchema({ anyOf: [{ $ref: '#' }, { $ref: '#' }, { $ref: '#' }] }, words),
    ).toBeDefined();
    // Built to explode: resolving it fully would take 1000^8 steps.
    expect(
      valueForSchema({ allOf: Array.from({ length: 1000 }, () => ({ $ref: '#' })) }, words),
    ).toBeDefined();
    expect(
      (valueForSchema({ type: 'array', minItems: 1e9 }, words) as unknown[]).length,
    ).toBeLessThanOrEqual(1000);
  });

  it('answers `true`, `{}` and a missing schema with a value, and follows a $ref with sibling keywords', () => {
    expect(typeof valueForSchema(true, words)).toBe('string');
    expect(typeof valueForSchema({}, words)).toBe('string');
    const schema = { $defs: { Short: { type: 'string' } }, $ref: '#/$defs/Short', maxLength: 3 };
    expect(valueForSchema(schema, words)).toBe('har');
  });

  it('works with no words at all', () => {
    expect(
      valueForSchema(
        {
          type: 'object',
          properties: { name: { type: 'string', minLength: 1 } },
          required: ['name'],
        },
        [],
      ),
    ).toEqual({
      name: expect.any(String) as unknown,
    });
  });
});
