import { parseArgs, type ParseArgsConfig } from 'node:util';

export interface CliArgs {
  help: boolean;
  /** Flags as the environment variables they stand for. */
  env: Record<string, string>;
}

/**
 * A Node entry point's arguments (both apps' CLIs), read with `node:util` parseArgs: each of `flags`
 * (`--port`) stands for an environment variable (`PORT`); `--flag value` and `--flag=value`; `--help`
 * or `-h`. An unknown flag, a positional argument or a missing value is an error naming it.
 */
export function parseCliArgs(
  argv: readonly string[],
  flags: Readonly<Record<string, string>>,
): CliArgs {
  const options: NonNullable<ParseArgsConfig['options']> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const flag of Object.keys(flags)) options[flag.slice(2)] = { type: 'string' };
  // Not strict: parseArgs' own messages would differ from the ones docs/design.md's CLI has always printed,
  // so every token is judged here instead.
  const { tokens } = parseArgs({
    args: [...argv],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const result: CliArgs = { help: false, env: {} };
  for (const token of tokens) {
    const arg = argv[token.index] ?? '';
    if (token.kind !== 'option') throw unknownArgument(arg);
    // -h only alone: a group of short flags (-hp) or a value given to a boolean (--help=1) is not a flag here.
    if (token.name === 'help' && arg === token.rawName) {
      result.help = true;
      continue;
    }
    const variable = token.rawName.startsWith('--') ? flags[token.rawName] : undefined;
    if (variable === undefined) throw unknownArgument(arg);
    if (token.value === undefined || token.value === '')
      throw new Error(`${token.rawName} needs a value`);
    result.env[variable] = token.value;
  }
  return result;
}

function unknownArgument(arg: string): Error {
  return new Error(`unknown argument '${arg}' (see --help)`);
}
