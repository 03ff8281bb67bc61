import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));

export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface StartedMain {
  /** Everything printed on stdout up to and including the banner's last line. */
  banner: string;
  /** The `http://host:port` of the banner's first line. */
  baseUrl: string;
  /** Everything printed on stderr so far (the generated key's line, written before the banner). */
  terminal(): string;
  child: ChildProcess;
  /** SIGTERM, then the exit. */
  stop(): Promise<void>;
}

function spawnMain(env: Record<string, string>, prefix: readonly string[]): ChildProcess {
  if (!existsSync(main))
    throw new Error(`${main} is missing: run pnpm build first (turbo builds before testing)`);
  const [command, ...args] = [...prefix, process.execPath, main];
  // Only what a start needs: no INFERGATE_* of the test runner's own environment leaks in.
  return spawn(command as string, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
  });
}

/** Runs the built CLI (as `pnpm start` does) until it exits; one that hangs is killed after 30 s. */
export function runMainToExit(
  env: Record<string, string>,
  prefix: readonly string[] = [],
): Promise<Outcome> {
  const child = spawnMain(env, prefix);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts the built CLI and resolves once its start banner is complete (its `Configuration:` line). */
export function startMainUntilBanner(env: Record<string, string>): Promise<StartedMain> {
  const child = spawnMain(env, []);
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const baseUrl = /listening on (http:\/\/\S+?);/.exec(stdout)?.[1];
      if (baseUrl === undefined || !/^Configuration: .*\n/m.test(stdout)) return;
      resolve({
        banner: stdout,
        baseUrl,
        terminal: () => stderr,
        child,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
    child.once('close', (code) =>
      reject(new Error(`exited with ${code} before its banner:\n${stdout}\n${stderr}`)),
    );
  });
}
