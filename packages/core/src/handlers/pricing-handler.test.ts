import { describe, expect, it } from 'vitest';
import { fakeGatewayDeps, handlerInput } from '../../test/fake-gateway-deps.js';
import { pricingHandler } from './pricing-handler.js';
import { bodyText } from '../http/body-text.js';

async function pricing(file: unknown): Promise<unknown> {
  const result = await pricingHandler(handlerInput({ path: '/pricing' }), {
    ...fakeGatewayDeps({ file }),
    identity: undefined,
  });
  if (result.kind !== 'json') throw new Error('expected JSON');
  expect(result.status).toBe(200);
  return JSON.parse(bodyText(result.body));
}

describe('GET /pricing', () => {
  it('lists the configured prices in catalogue order, leaving unpriced models out', async () => {
    const body = await pricing({
      prices: {
        'gamma-m3': { input_per_million: 0.02, output_per_million: 0, currency: 'EUR' },
        'alpha36-35b-a3b-instruct': {
          input_per_million: 0.1,
          output_per_million: 0.4,
          currency: 'USD',
        },
      },
    });
    expect(body).toEqual({
      object: 'list',
      data: [
        {
          model: 'alpha36-35b-a3b-instruct',
          input_per_million: 0.1,
          output_per_million: 0.4,
          currency: 'USD',
        },
        { model: 'gamma-m3', input_per_million: 0.02, output_per_million: 0, currency: 'EUR' },
      ],
    });
  });

  it('is an empty list with no prices configured', async () => {
    expect(await pricing(undefined)).toEqual({ object: 'list', data: [] });
  });
});
