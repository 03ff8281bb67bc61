import { explainStartFailure, type ListenConfig } from './explain-start-failure.js';

/** Exit code of a start that failed on its environment: the port, a permission. */
export const startFailureExitCode = 1;

/**
 * A start that failed after its configuration was accepted: a failure the operator can fix (port
 * taken, no permission, the local backend missing) is one line with the address and the fix, exit code 1, not a
 * stack; anything else is a bug and is thrown again, for its stack trace.
 */
export function exitOnStartFailure(program: string, error: unknown, config: ListenConfig): never {
  const explained = explainStartFailure(error, config);
  if (explained === undefined) throw error;
  process.stderr.write(`${program}: ${explained}\n`);
  process.exit(startFailureExitCode);
}
