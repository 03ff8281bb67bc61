import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: the bench's plain JavaScript module has no types
import { buildOpenLoop, openLoopFixedRate } from '../bench/open-loop-load.mjs';

const hasCompiler = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v cc'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

// The bench's fixed-rate generator against a loopback server whose answers and pauses the test sets.
describe.skipIf(!hasCompiler)('open-loop.c, the fixed-rate generator of the bench', () => {
  let directory: string;
  let binary: string;
  let server: Server;
  let origin: string;
  // The first /stall request to arrive after this time (ms since the epoch) is answered 100 ms late.
  let stallAfter = Number.POSITIVE_INFINITY;
  const seen: { path: string; body: string; authorization: string | undefined }[] = [];

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'open-loop-'));
    binary = buildOpenLoop(directory, (line: string) => {
      throw new Error(line);
    });
    server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        const path = request.url ?? '';
        seen.push({ path, body, authorization: request.headers.authorization });
        const answer = () => {
          if (path === '/error') {
            response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"no"}');
          } else if (path === '/chunked') {
            // No content-length: Node sends it chunked, one chunk per write.
            response.writeHead(200, { 'content-type': 'text/event-stream' });
            for (let index = 0; index < 5; index += 1)
              response.write(`data: ${'x'.repeat(index * 700)}\n\n`);
            response.end('data: [DONE]\n\n');
          } else {
            response
              .writeHead(200, { 'content-type': 'application/json' })
              .end(JSON.stringify({ ok: true, pad: 'y'.repeat(3000) }));
          }
        };
        if (path === '/stall' && Date.now() >= stallAfter) {
          stallAfter = Number.POSITIVE_INFINITY;
          setTimeout(answer, 100);
        } else {
          answer();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(directory, { recursive: true, force: true });
  });

  const run = (path: string, connections = 8) =>
    openLoopFixedRate({
      binary,
      workDirectory: directory,
      origin,
      request: {
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer k-1' },
        body: '{"model":"m"}',
      },
      rate: 500,
      warmSeconds: 0.2,
      seconds: 1,
      connections,
    });

  it('sends the body and headers, reads answers with a length and chunked answers to their end, and counts only the measured second', async () => {
    seen.length = 0;
    const sized = await run('/length');
    expect(sized).toMatchObject({ requests: 500, errors: 0 });
    expect(seen).toHaveLength(600);
    expect(seen[0]).toEqual({
      path: '/length',
      body: '{"model":"m"}',
      authorization: 'Bearer k-1',
    });
    const chunked = await run('/chunked');
    expect(chunked).toMatchObject({ requests: 500, errors: 0 });
    expect(chunked.p99).toBeLessThan(chunked.max + 0.001);
  });

  it('counts every answer but 200 as an error', async () => {
    expect(await run('/error')).toMatchObject({ requests: 500, errors: 600 });
  });

  it("counts a stall from each request's due time: the requests queued behind it are slow too", async () => {
    // One connection at 500/s: a 100 ms pause holds up the ~50 requests due during it, about 10 % of
    // the second, which a generator timing from the send would report as one slow request.
    const steady = await run('/stall', 1);
    // Past the generator's start and its 0.2 s of warm-up: inside the measured second.
    stallAfter = Date.now() + 700;
    const stalled = await run('/stall', 1);
    expect(steady.errors + stalled.errors).toBe(0);
    expect(stalled.max).toBeGreaterThanOrEqual(95);
    expect(stalled.p99).toBeGreaterThan(50);
    expect(steady.p99).toBeLessThan(stalled.p99);
  });
});
