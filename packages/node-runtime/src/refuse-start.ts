/** Exit code of a start refused for its configuration or arguments (docs/design.md's operator contract). */
export const badConfigExitCode = 2;

/** Stops a CLI's start refused for its configuration or arguments: `<program>: <message>`, exit code 2. */
export function refuseStart(program: string, message: string): never {
  process.stderr.write(`${program}: ${message}\n`);
  process.exit(badConfigExitCode);
}
