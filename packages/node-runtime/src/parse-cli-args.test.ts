import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './parse-cli-args.js';

const nodeServerFlags = { '--config': 'INFERGATE_CONFIG', '--host': 'HOST', '--port': 'PORT' };

describe('parseCliArgs', () => {
  it('maps flags to the environment variables they stand for', () => {
    expect(
      parseCliArgs(['--config', 'a.yaml', '--port=9000', '--host', '0.0.0.0'], nodeServerFlags),
    ).toEqual({
      help: false,
      env: { INFERGATE_CONFIG: 'a.yaml', PORT: '9000', HOST: '0.0.0.0' },
    });
    expect(parseCliArgs(['--help'], nodeServerFlags).help).toBe(true);
    expect(parseCliArgs(['-h'], nodeServerFlags)).toEqual({ help: true, env: {} });
    // The next argument is the value, whatever it looks like; a value may hold '='.
    expect(parseCliArgs(['--host', '-1', '--config=a=b.yaml'], nodeServerFlags).env).toEqual({
      HOST: '-1',
      INFERGATE_CONFIG: 'a=b.yaml',
    });
  });

  it('refuses unknown flags and missing values by name', () => {
    expect(() => parseCliArgs(['--verbose'], nodeServerFlags)).toThrow(
      "unknown argument '--verbose' (see --help)",
    );
    expect(() => parseCliArgs(['--port'], nodeServerFlags)).toThrow(/--port needs a value/);
    expect(() => parseCliArgs(['--port='], nodeServerFlags)).toThrow(/--port needs a value/);
    // Only the given flags: the edge app's CLI has no --config.
    expect(() =>
      parseCliArgs(['--config', 'a.yaml'], { '--host': 'HOST', '--port': 'PORT' }),
    ).toThrow(/--config/);
  });

  it('refuses what is not one flag: positionals, short groups, a value for --help, the -- terminator', () => {
    for (const arg of ['serve', '-hp', '--help=1', '--', '-p'])
      expect(() => parseCliArgs([arg], nodeServerFlags)).toThrow(
        `unknown argument '${arg}' (see --help)`,
      );
  });
});
