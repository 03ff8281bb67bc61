import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { freeLoopbackPort } from './free-loopback-port.js';

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (SIGKILL by PID: nothing is persisted) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts a fresh, empty server on the same port (after stop). */
  restart(): Promise<void>;
}

// Servers still running when the test process exits (a failed test that skipped its afterAll).
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

async function launch(port: number, extraArgs: readonly string[]): Promise<ChildProcess> {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--enable-debug-command',
    'local',
  ];
  const child = spawn('redis-server', [...args, ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`redis-server did not start on port ${port}:\n${output}`)),
      15_000,
    );
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        error.code === 'ENOENT'
          ? new Error(
              'redis-server is not installed: these tests need a real Redis (Debian: apt-get install -y redis-server; .ci/run installs it)',
            )
          : error,
      );
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${String(code)}:\n${output}`));
    });
    const onData = (text: string): void => {
      output += text;
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        child.once('exit', () => running.delete(child));
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
  });
  return child;
}

async function kill(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/**
 * A real redis-server on `wantedPort` (a free loopback port by default), without persistence, with
 * `extraArgs` after the test's own (a manifest's `--requirepass`); the test must stop it (afterAll).
 */
export async function startRedisServer(
  wantedPort?: number,
  extraArgs: readonly string[] = [],
): Promise<RedisServer> {
  const port = wantedPort ?? (await freeLoopbackPort());
  let child: ChildProcess | undefined = await launch(port, extraArgs);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      await kill(child);
      child = undefined;
    },
    async restart() {
      await kill(child);
      child = await launch(port, extraArgs);
    },
  };
}
