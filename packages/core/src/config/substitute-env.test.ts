import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-file-schema.js';
import { substituteEnv } from './substitute-env.js';

describe('substituteEnv', () => {
  it('replaces ${NAME} in every string, at any depth, and leaves other values alone', () => {
    const value = {
      keys: ['${A}', 'plain'],
      upstreams: [{ url: 'http://${HOST}:${PORT}', retries: 2, on: true, none: null }],
    };
    expect(substituteEnv(value, { A: 'key-a', HOST: '10.0.0.5', PORT: '8000' })).toEqual({
      keys: ['key-a', 'plain'],
      upstreams: [{ url: 'http://10.0.0.5:8000', retries: 2, on: true, none: null }],
    });
  });

  it('does not change the input value', () => {
    const value = { keys: ['${A}'] };
    substituteEnv(value, { A: 'x' });
    expect(value.keys[0]).toBe('${A}');
  });

  it('leaves mapping keys as written', () => {
    expect(substituteEnv({ models: { '${A}': 'y' } }, { A: 'x' })).toEqual({
      models: { '${A}': 'y' },
    });
  });

  it('substitutes a set but empty variable', () => {
    expect(substituteEnv({ api_key: 'k${EMPTY}' }, { EMPTY: '' })).toEqual({ api_key: 'k' });
  });

  it('keeps $${NAME} as a literal ${NAME}', () => {
    expect(substituteEnv({ api_key: 'pa$${NOT_A_VAR}ss' }, {})).toEqual({
      api_key: 'pa${NOT_A_VAR}ss',
    });
  });

  it('names the missing variable and the path where it was used', () => {
    const run = () =>
      substituteEnv({ upstreams: [{ name: 'a' }, { api_key: '${VLLM_KEY}' }] }, { OTHER: 'x' });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow('upstreams[1].api_key: environment variable VLLM_KEY is not set');
  });

  it('refuses a reference that is not a variable name', () => {
    expect(() => substituteEnv({ keys: ['${not-a-name}'] }, {})).toThrow(
      /^keys\[0\]: .*not a valid environment variable reference/,
    );
  });
});
