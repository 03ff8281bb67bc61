import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../errors/gateway-error.js';
import { authorizeOperator } from './authorize-operator.js';
import { createKeyStore } from './create-key-store.js';

const keys = createKeyStore([
  'sk-plain',
  { key: 'sk-team', name: 'team', models: ['general-std'] },
  { key: 'sk-ops', name: 'ops', operator: true },
]);
const metricsKey = createKeyStore([{ key: 'sk-scraper', name: 'metrics' }]);

async function outcome(
  authorization: string | undefined,
  alsoOpens: { metricsKey?: boolean } = { metricsKey: true },
): Promise<string> {
  try {
    await authorizeOperator(
      authorization,
      '/metrics',
      keys,
      alsoOpens.metricsKey === true ? metricsKey : undefined,
    );
    return 'open';
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    return `${error.status} ${error.code}`;
  }
}

describe('authorizeOperator', () => {
  it('opens for an operator key and for a key that opens this endpoint alone', async () => {
    expect(await outcome('Bearer sk-ops')).toBe('open');
    expect(await outcome('Bearer sk-scraper')).toBe('open');
  });

  it('is 403 operator_key_required for any other API key, restricted or not', async () => {
    expect(await outcome('Bearer sk-plain')).toBe('403 operator_key_required');
    expect(await outcome('Bearer sk-team')).toBe('403 operator_key_required');
  });

  it('is 401 without a key or with an unknown one', async () => {
    expect(await outcome(undefined)).toBe('401 invalid_api_key');
    expect(await outcome('Bearer sk-nobody')).toBe('401 invalid_api_key');
    expect(await outcome('Basic c2stb3Bz')).toBe('401 invalid_api_key');
  });

  it('a metrics key given for one endpoint opens no other', async () => {
    expect(await outcome('Bearer sk-scraper', {})).toBe('401 invalid_api_key');
  });

  it('the operator flag reaches the identity, and only when set', async () => {
    expect(await keys.verify('sk-ops')).toEqual({ name: 'ops', operator: true });
    expect(await keys.verify('sk-team')).toEqual({ name: 'team', models: ['general-std'] });
  });
});
