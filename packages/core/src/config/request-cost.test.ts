import { describe, expect, it } from 'vitest';
import { formatAmount, formatCost, requestCost, usageCostOf } from './request-cost.js';

const prices = {
  text: { input_per_million: 0.15, output_per_million: 0.6, currency: 'USD' },
  image: { input_per_million: 5, output_per_million: 40, per_image: 0.011, currency: 'USD' },
  euro: { input_per_million: 1, output_per_million: 2, currency: 'EUR' },
};

describe('requestCost', () => {
  it('charges input and output tokens per million, and images per image', () => {
    expect(requestCost({ model: 'text', inputTokens: 1000, outputTokens: 500 }, prices)).toEqual([
      { model: 'text', amount: 0.00045, currency: 'USD' },
    ]);
    const [image] = requestCost(
      { model: 'image', inputTokens: 10, outputTokens: 100, images: 2 },
      prices,
    );
    expect(image?.amount).toBeCloseTo(0.02605, 12);
  });

  it("charges a -pe rewrite at its text model's price, and nothing for a model without one", () => {
    const parts = requestCost(
      {
        model: 'unpriced-image',
        images: 1,
        promptEnhancement: { model: 'text', inputTokens: 100, outputTokens: 100 },
      },
      prices,
    );
    expect(parts).toEqual([{ model: 'text', amount: 0.000075, currency: 'USD' }]);
    expect(requestCost({ model: 'unpriced', inputTokens: 5 }, prices)).toEqual([]);
    expect(requestCost({ model: 'toString', inputTokens: 5 }, prices)).toEqual([]);
  });
});

describe('formatCost', () => {
  it('writes at most 10 decimals without trailing zeros, summed per currency', () => {
    expect(formatAmount(0.1 * 7e-6)).toBe('0.0000007');
    expect(formatAmount(0)).toBe('0');
    expect(formatAmount(12)).toBe('12');
    expect(
      formatCost([
        { model: 'a', amount: 0.00045, currency: 'USD' },
        { model: 'b', amount: 0.0002, currency: 'EUR' },
        { model: 'c', amount: 0.00005, currency: 'USD' },
      ]),
    ).toBe('0.0005 USD, 0.0002 EUR');
    expect(formatCost([])).toBeUndefined();
  });

  it("gives a stream's usage the amount the header would write", () => {
    expect(usageCostOf(prices, 'text')?.(1000, 500)).toBe(0.00045);
    expect(usageCostOf(prices, 'unpriced')).toBeUndefined();
  });
});
