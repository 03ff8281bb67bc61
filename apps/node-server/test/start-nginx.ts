import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freeLoopbackPort } from './free-loopback-port.js';

/** The location rules shipped in deploy/nginx and used by docker-compose.yml. */
const locationsFile = fileURLToPath(
  new URL('../../../deploy/nginx/infergate-locations.conf', import.meta.url),
);

export interface NginxOptions {
  /** Loopback ports of the gateway replicas. */
  upstreamPorts: readonly number[];
  /** Passive health check: failures before a replica is left out for `failTimeoutSeconds`. */
  maxFails: number;
  failTimeoutSeconds: number;
}

export interface AccessLogLine {
  /** The replicas nginx tried, in order (more than one: the request was passed to the next). */
  upstreams: string[];
  upstreamStatuses: string[];
  status: number;
  request: string;
}

export interface Nginx {
  baseUrl: string;
  /** The access log so far, one entry per request nginx answered. */
  accessLog(): AccessLogLine[];
  /** The error log so far. */
  errorLog(): string;
  /** Graceful stop (SIGQUIT by PID), then removes its folder. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

async function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Debian's nginx in the foreground on a free loopback port, with its own prefix folder (config, pid,
 * logs, temp files), in front of `upstreamPorts` with the repository's location rules.
 */
export async function startNginx(options: NginxOptions): Promise<Nginx> {
  const prefix = mkdtempSync(join(tmpdir(), 'infergate-nginx-'));
  // The worker processes run as nobody and keep request bodies under the prefix.
  chmodSync(prefix, 0o755);
  const port = await freeLoopbackPort();
  const servers = options.upstreamPorts
    .map(
      (upstreamPort) =>
        `        server 127.0.0.1:${upstreamPort} max_fails=${options.maxFails} fail_timeout=${options.failTimeoutSeconds}s;`,
    )
    .join('\n');
  writeFileSync(
    join(prefix, 'nginx.conf'),
    `daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
    log_format replicas '$upstream_addr|$upstream_status|$status|$request';
    access_log ${prefix}/access.log replicas;
    client_body_temp_path ${prefix}/client-body;
    proxy_temp_path ${prefix}/proxy;
    fastcgi_temp_path ${prefix}/fastcgi;
    uwsgi_temp_path ${prefix}/uwsgi;
    scgi_temp_path ${prefix}/scgi;
    upstream infergate {
${servers}
        keepalive 16;
    }
    server {
        listen 127.0.0.1:${port};
        include ${locationsFile};
    }
}
`,
  );
  const child = spawn(
    'nginx',
    ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', join(prefix, 'error.log')],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error(
              'nginx is not installed: this test needs Debian nginx (apt-get install -y nginx; .ci/run installs it)',
            )
          : error,
      ),
    );
  });
  await spawned;
  const readLog = (name: string): string => {
    try {
      return readFileSync(join(prefix, name), 'utf8');
    } catch {
      return '';
    }
  };
  for (let attempt = 0; !(await acceptsConnections(port)); attempt += 1) {
    if (child.exitCode !== null || attempt > 200)
      throw new Error(`nginx did not start: ${output}${readLog('error.log')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    accessLog: () =>
      readLog('access.log')
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [upstreams = '', upstreamStatuses = '', status = '0', request = ''] =
            line.split('|');
          return {
            upstreams: upstreams.split(/, | : /),
            upstreamStatuses: upstreamStatuses.split(/, | : /),
            status: Number(status),
            request,
          };
        }),
    errorLog: () => readLog('error.log'),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGQUIT');
        await exited;
      }
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
