import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './parse-cli-args.js';

describe('parseCliArgs', () => {
  it('maps flags to the environment variables they stand for', () => {
    expect(parseCliArgs(['--config', 'a.yaml', '--port=9000', '--host', '0.0.0.0'])).toEqual({ help: false, env: { INFERGATE_CONFIG: 'a.yaml', PORT: '9000', HOST: '0.0.0.0' } });
    expect(parseCliArgs(['--help']).help).toBe(true);
  });

  it('refuses unknown flags and missing values by name', () => {
    expect(() => parseCliArgs(['--verbose'])).toThrow(/--verbose/);
    expect(() => parseCliArgs(['--port'])).toThrow(/--port needs a value/);
  });
});
