export interface CliArgs {
  help: boolean;
  /** Flags as the environment variables they stand for. */
  env: Record<string, string>;
}

/**
 * A Node entry point's arguments (both apps' CLIs): each of `flags` (`--port`) stands for an environment
 * variable (`PORT`); `--flag value` and `--flag=value`; `--help` or `-h`. An unknown flag or a missing
 * value is an error naming it.
 */
export function parseCliArgs(argv: readonly string[], flags: Readonly<Record<string, string>>): CliArgs {
  const result: CliArgs = { help: false, env: {} };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    if (arg === '--help' || arg === '-h') {
      result.help = true;
      continue;
    }
    const [flag = '', inline] = arg.split(/=(.*)/s, 2);
    const variable = flags[flag];
    if (!variable) throw new Error(`unknown argument '${arg}' (see --help)`);
    const value = inline ?? argv[(index += 1)];
    if (value === undefined || value === '') throw new Error(`${flag} needs a value`);
    result.env[variable] = value;
  }
  return result;
}
