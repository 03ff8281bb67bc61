import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));

export interface GatewayProcess {
  baseUrl: string;
  child: ChildProcess;
  /** The config file the process was started with (INFERGATE_CONFIG): a test may rewrite it. */
  configPath: string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** The process's resident set from /proc, in MB: the gateway alone, without the test runner. */
  rssMb(): number;
  /** With `options.inspect`: the inspector's WebSocket URL (see inspect-process-memory.ts). */
  inspectorUrl?: string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
  /** Everything the process has written to stdout so far. */
  stdout(): string;
}

/**
 * The built CLI (dist/main.js, as `pnpm start` runs it) as its own process, with a config file and
 * keys (`apiKey`, or the config file's `keys`): for tests of the process itself (its exit on a signal,
 * its memory, what others see when it is killed). On `options.port` (a replica restarted behind a load
 * balancer keeps its port), else on a free one.
 */
export async function startGatewayProcess(
  file: object,
  apiKey?: string,
  options: { port?: number; inspect?: boolean; logLevel?: string; prefix?: readonly string[] } = {},
): Promise<GatewayProcess> {
  if (!existsSync(main))
    throw new Error(`${main} is missing: run pnpm build first (turbo builds before testing)`);
  const directory = mkdtempSync(join(tmpdir(), 'infergate-process-'));
  const configPath = join(directory, 'config.json');
  writeFileSync(configPath, JSON.stringify(file));
  // `prefix` runs the process through another command, as `bash -c 'ulimit -n 64; exec "$@"' bash` does.
  const [command, ...args] = [
    ...(options.prefix ?? []),
    process.execPath,
    ...(options.inspect === true ? ['--inspect=127.0.0.1:0'] : []),
    main,
  ];
  const child = spawn(command as string, args, {
    stdio: ['ignore', 'pipe', options.inspect === true ? 'pipe' : 'inherit'],
    env: {
      ...process.env,
      INFERGATE_CONFIG: configPath,
      INFERGATE_API_KEYS: apiKey ?? '',
      PORT: String(options.port ?? 0),
      HOST: '127.0.0.1',
      LOG_LEVEL: options.logLevel ?? 'warn',
    },
  });
  let inspectorUrl: string | undefined;
  if (options.inspect === true) {
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      if (inspectorUrl !== undefined) return;
      errors += chunk.toString();
      inspectorUrl = /Debugger listening on (ws:\/\/\S+)/.exec(errors)?.[1];
    });
  }
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  // 'close', not 'exit': the pipe may still hold the last lines when the process has exited. The
  // config file's folder goes with the process.
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code) => {
      rmSync(directory, { recursive: true, force: true });
      resolve(code);
    }),
  );
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+?);/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', () => reject(new Error(`exited before listening: ${output}`)));
  });
  if (options.inspect === true && inspectorUrl === undefined)
    throw new Error('the gateway started without printing its inspector URL');
  return {
    baseUrl,
    child,
    configPath,
    inspectorUrl,
    exited,
    rssMb: () => {
      const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (!match?.[1]) throw new Error(`no VmRSS for process ${child.pid}`);
      return Number(match[1]) / 1024;
    },
    stdout: () => stdout,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
