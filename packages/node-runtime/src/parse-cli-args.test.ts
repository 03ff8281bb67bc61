import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './parse-cli-args.js';

const nodeServerFlags = { '--config': 'INFERGATE_CONFIG', '--host': 'HOST', '--port': 'PORT' };

describe('parseCliArgs', () => {
  it('maps flags to the environment variables they stand for', () => {
    expect(parseCliArgs(['--config', 'a.yaml', '--port=9000', '--host', '0.0.0.0'], nodeServerFlags)).toEqual({ help: false, env: { INFERGATE_CONFIG: 'a.yaml', PORT: '9000', HOST: '0.0.0.0' } });
    expect(parseCliArgs(['--help'], nodeServerFlags).help).toBe(true);
  });

  it('refuses unknown flags and missing values by name', () => {
    expect(() => parseCliArgs(['--verbose'], nodeServerFlags)).toThrow(/--verbose/);
    expect(() => parseCliArgs(['--port'], nodeServerFlags)).toThrow(/--port needs a value/);
    expect(() => parseCliArgs(['--port='], nodeServerFlags)).toThrow(/--port needs a value/);
    // Only the given flags: the edge app's CLI has no --config.
    expect(() => parseCliArgs(['--config', 'a.yaml'], { '--host': 'HOST', '--port': 'PORT' })).toThrow(/--config/);
  });
});
