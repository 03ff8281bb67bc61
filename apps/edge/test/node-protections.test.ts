import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { upstreamsServingEverything } from '@infergate/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Both Node entry points (the node-server's CLI and the edge app's main-node) get their server
 * setup from @infergate/node-runtime, so they protect themselves alike. Each runs here as its built CLI
 * in its own process, with the same configuration, and is held to the same answers.
 */

const nodeServerMain = fileURLToPath(new URL('../../node-server/dist/main.js', import.meta.url));
const edgeMain = fileURLToPath(new URL('../dist/main-node.js', import.meta.url));
const key = 'protections-key';

interface Target {
  name: string;
  start(file: object): { child: ChildProcess; banner: RegExp };
}

const targets: Target[] = [
  {
    name: 'node-server',
    start(file) {
      const directory = mkdtempSync(join(tmpdir(), 'protections-'));
      const configPath = join(directory, 'config.json');
      writeFileSync(configPath, JSON.stringify(file));
      const env = {
        ...process.env,
        INFERGATE_CONFIG: configPath,
        INFERGATE_API_KEYS: '',
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
      };
      const child = spawn(process.execPath, [nodeServerMain], {
        stdio: ['ignore', 'pipe', 'inherit'],
        env,
      });
      // The config file's folder goes with the process.
      child.once('exit', () => rmSync(directory, { recursive: true, force: true }));
      return { child, banner: /listening on (http:\/\/\S+?);/ };
    },
  },
  {
    name: 'edge on Node',
    start(file) {
      // No in-process local backend: every model has a configured upstream.
      const env = {
        ...process.env,
        INFERGATE_CONFIG_JSON: JSON.stringify(file),
        INFERGATE_API_KEYS: '',
        INFERGATE_LOCAL_BACKEND_URL: 'http://127.0.0.1:9',
        PORT: '0',
        HOST: '127.0.0.1',
      };
      return {
        child: spawn(process.execPath, [edgeMain], { stdio: ['ignore', 'pipe', 'inherit'], env }),
        banner: /listening on (http:\/\/\S+)/,
      };
    },
  },
];

interface Running {
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

const started: ChildProcess[] = [];

async function startTarget(target: Target, file: object): Promise<Running> {
  for (const main of [nodeServerMain, edgeMain])
    if (!existsSync(main)) throw new Error(`${main} is missing: run pnpm build first`);
  const { child, banner } = target.start({
    keys: [key],
    upstreams: upstreamsServingEverything('http://127.0.0.1:9'),
    ...file,
  });
  started.push(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = banner.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', () =>
      reject(new Error(`${target.name} exited before listening: ${output}`)),
    );
  });
  return { url, child, exited };
}

afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Exchange {
  status: number;
  head: string;
  body: unknown;
  /** Milliseconds from the first write to the server closing the connection. */
  closedAfterMs: number;
}

/**
 * Writes `text` to a raw TCP connection, keeps it open (a slow or stalled client), and reads until the
 * server closes it or `giveUpMs` passes; `onSent` runs once the text is written.
 */
function rawExchange(
  url: string,
  text: string,
  giveUpMs = 15_000,
  onSent?: (close: () => void) => void,
): Promise<Exchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let received = '';
    let startedAt = 0;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(`the server kept the connection open for ${giveUpMs} ms; it wrote: ${received}`),
      );
    }, giveUpMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const [head = '', body = ''] = received.split('\r\n\r\n', 2);
      let json: unknown;
      try {
        json = JSON.parse(
          head.toLowerCase().includes('transfer-encoding: chunked') ? dechunk(body) : body,
        ) as unknown;
      } catch {
        json = undefined;
      }
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
        head: head.toLowerCase(),
        body: json,
        closedAfterMs: Date.now() - startedAt,
      });
    });
    socket.on('connect', () => {
      startedAt = Date.now();
      socket.write(text, () => onSent?.(() => socket.destroy()));
    });
  });
}

/** The payload of a chunked body (chunk extensions and trailers aside). */
function dechunk(body: string): string {
  let payload = '';
  for (let rest = body; ;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (!(size > 0)) return payload;
    payload += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

function embeddingsHead(
  contentLength: number | 'chunked',
  authorization = `Bearer ${key}`,
): string {
  const length =
    contentLength === 'chunked' ? 'transfer-encoding: chunked' : `content-length: ${contentLength}`;
  return `POST /v1/embeddings HTTP/1.1\r\nhost: gateway\r\nconnection: close\r\nauthorization: ${authorization}\r\ncontent-type: application/json\r\n${length}\r\n\r\n`;
}

describe.each(targets)('$name on Node', (target) => {
  describe('server timeouts and client errors', () => {
    let server: Running;
    beforeAll(async () => {
      // Limits far below Node's 30 s connection check: they are met only if connectionsCheckingInterval follows them.
      server = await startTarget(target, {
        timeouts: {
          inbound_headers_ms: 600,
          inbound_request_ms: 1500,
          keep_alive_ms: 400,
          drain_delay_ms: 0,
        },
      });
    }, 60_000);
    afterAll(async () => {
      server.child.kill('SIGINT');
      await server.exited;
    });

    it('answers headers that do not arrive within inbound_headers_ms with 408 in the native envelope', async () => {
      const exchange = await rawExchange(
        server.url,
        'GET /healthz HTTP/1.1\r\nhost: gateway\r\n',
        10_000,
      );
      expect(exchange.status).toBe(408);
      expect(exchange.body).toMatchObject({ error: { code: 'request_timeout' } });
      expect(exchange.closedAfterMs).toBeGreaterThanOrEqual(500);
    });

    it('answers a body that does not arrive within inbound_request_ms with 408', async () => {
      const exchange = await rawExchange(server.url, `${embeddingsHead(100)}{"model":`, 10_000);
      expect(exchange.status).toBe(408);
      expect(exchange.closedAfterMs).toBeGreaterThanOrEqual(1400);
    });

    it('closes an idle keep-alive connection after keep_alive_ms', async () => {
      const exchange = await rawExchange(
        server.url,
        'GET /healthz HTTP/1.1\r\nhost: gateway\r\n\r\n',
        10_000,
      );
      expect(exchange.status).toBe(200);
      expect(exchange.head).not.toContain('connection: close');
      expect(exchange.closedAfterMs).toBeGreaterThanOrEqual(300);
    });

    it('answers a malformed request line with 400 malformed_request and closes', async () => {
      const exchange = await rawExchange(server.url, 'NOT AN HTTP REQUEST\r\n\r\n', 10_000);
      expect(exchange.status).toBe(400);
      expect(exchange.head).toContain('connection: close');
      expect(exchange.body).toMatchObject({ error: { code: 'malformed_request' } });
    });
  });

  describe('the in-flight body budget and the SIGTERM drain', () => {
    let server: Running;
    beforeAll(async () => {
      server = await startTarget(target, {
        limits: { max_inflight_body_bytes: 8192, body_json_bytes: 8192, body_image_bytes: 8192 },
        timeouts: { drain_delay_ms: 1500, shutdown_grace_ms: 1000 },
      });
    }, 60_000);
    afterAll(() => {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    });

    it('refuses bodies past the budget with 503 overloaded and Retry-After, gives the bytes back, and keeps 413 for a body over the route limit', async () => {
      // A client holds 6000 declared bytes: reserved whole before a byte of the body is read.
      let releaseHolder = (): void => undefined;
      const holderSent = new Promise<void>((resolve) => {
        void rawExchange(server.url, `${embeddingsHead(6000)}{"model":`, 30_000, (close) => {
          releaseHolder = close;
          resolve();
        }).catch(() => undefined);
      });
      await holderSent;
      // The key comes before the budget: a wrong key is 401 at once, whatever the budget holds.
      const refused = await rawExchange(
        server.url,
        `${embeddingsHead(4000, 'Bearer not-a-key')}${' '.repeat(4000)}`,
      );
      expect(refused.status).toBe(401);
      expect(refused.head).toContain('www-authenticate: bearer');
      const validKey = `Bearer ${key}`;
      let declared: Exchange | undefined;
      for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
        declared = await rawExchange(
          server.url,
          `${embeddingsHead(4000, validKey)}${' '.repeat(4000)}`,
        );
        if (declared.status === 503) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(declared?.status).toBe(503);
      expect(declared?.head).toContain('retry-after: 1');
      expect(declared?.body).toMatchObject({ error: { code: 'overloaded' } });

      // A chunked body is counted as it arrives and refused the moment it would pass the budget.
      const chunk = ' '.repeat(2500);
      const chunked = await rawExchange(
        server.url,
        `${embeddingsHead('chunked', validKey)}${[chunk, chunk].map((part) => `${part.length.toString(16)}\r\n${part}\r\n`).join('')}0\r\n\r\n`,
      );
      expect(chunked.status).toBe(503);
      expect(chunked.body).toMatchObject({ error: { code: 'overloaded' } });

      // Over the route's limit it is the 413 of that limit, whatever the budget.
      const oversized = await rawExchange(server.url, embeddingsHead(9000, validKey));
      expect(oversized.status).toBe(413);

      // The holder leaves: its bytes are given back and the same request is read (and refused: spaces are not JSON).
      releaseHolder();
      let after: Exchange | undefined;
      for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
        after = await rawExchange(
          server.url,
          `${embeddingsHead(4000, validKey)}${' '.repeat(4000)}`,
        );
        if (after.status !== 503) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(after?.status).toBe(400);
    });

    it('on SIGTERM, /readyz turns 503 while requests are still served for drain_delay_ms, then it exits 0', async () => {
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      server.child.kill('SIGTERM');
      let ready = 200;
      for (const deadline = Date.now() + 5_000; ready === 200 && Date.now() < deadline;) {
        const response = await fetch(`${server.url}/readyz`);
        await response.body?.cancel();
        ready = response.status;
      }
      expect(ready).toBe(503);
      const models = await fetch(`${server.url}/v1/models`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(models.status).toBe(200);
      await models.body?.cancel();
      expect(await server.exited).toBe(0);
    }, 30_000);
  });
});
