import { describe, expect, it } from 'vitest';
import { resolveGatewayConfig } from '../config/resolve-gateway-config.js';
import { estimateRequestCost } from './estimate-request-cost.js';

const config = resolveGatewayConfig(
  {
    prices: {
      'alpha36-35b-a3b-instruct': {
        input_per_million: 1000,
        output_per_million: 2000,
        currency: 'USD',
      },
      'alpha-image': {
        input_per_million: 0,
        output_per_million: 0,
        per_image: 0.5,
        currency: 'USD',
      },
    },
    virtual_models: { cheap: 'alpha36-35b-a3b-instruct' },
  },
  {},
);

describe('estimateRequestCost', () => {
  it("prices a quarter of the body's characters in and its max_tokens out, through a virtual model", () => {
    const body = '{"model" : "cheap","max_tokens":10,"messages":[]}';
    // 49 characters: 13 tokens in at 0.001, 10 out at 0.002.
    expect(body).toHaveLength(49);
    expect(estimateRequestCost('chat', body, config, 'USD')).toBeCloseTo(0.013 + 0.02, 12);
  });

  it('prices images per image, n of them or one', () => {
    expect(
      estimateRequestCost('image-generations', '{"model":"alpha-image","n":3}', config, 'USD'),
    ).toBe(1.5);
    expect(estimateRequestCost('image-generations', '{"model":"alpha-image"}', config, 'USD')).toBe(
      0.5,
    );
  });

  it('is 0 for a model without a price in the currency, or no model named', () => {
    expect(estimateRequestCost('chat', '{"model":"alpha36-35b-a3b-instruct"}', config, 'EUR')).toBe(
      0,
    );
    expect(estimateRequestCost('chat', '{"model":"gamma-m3"}', config, 'USD')).toBe(0);
    // A "model" that is not the top-level string field is skipped.
    expect(
      estimateRequestCost('embeddings', '{"tools":{"model":{}},"input":"x"}', config, 'USD'),
    ).toBe(0);
  });
});
