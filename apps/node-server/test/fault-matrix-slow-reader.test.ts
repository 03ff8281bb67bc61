import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ContractClient,
  readTimed,
  recordFigure,
  startScriptedUpstream,
  upstreamsServingEverything,
  type ScriptedUpstream,
} from '@infergate/testkit';
import { liveMemoryMb } from './inspect-process-memory.js';
import { startGatewayProcess, type GatewayProcess } from './start-gateway-process.js';

// Row 21 measures the gateway's memory, so the gateway runs as its own process (the built CLI): the
// test runner's own sockets and the upstream's buffers do not count against the bound. The kernel
// buffers megabytes per paused connection (tcp_wmem) before pushing back, so the gateway's RSS shows how
// far V8 grew its heap for that burst, which varies with machine load. The bound holds on the live
// memory after full collections, read through the inspector; the RSS peak is reported beside it.
const apiKey = 'ig-slowread-0123456789abcdef0123456789ab';
const model = 'alpha36-35b-a3b-instruct';
const messages = [{ role: 'user', content: 'Go.' }];
const mib = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('fault matrix row 21, slow readers: node-server (process)', () => {
  let upstream: ScriptedUpstream;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    upstream = await startScriptedUpstream();
    gateway = await startGatewayProcess(
      { upstreams: upstreamsServingEverything(upstream.url), timeouts: { drain_delay_ms: 0 } },
      apiKey,
      { inspect: true },
    );
  });

  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  it('row 21: 100 clients that stop reading a 10 MB stream pause the upstream instead of filling memory', async () => {
    // Warm up first, so that RSS before counts the code paths a stream uses.
    upstream.setDefaultScript('ok:200:0');
    const client = new ContractClient({
      baseUrl: gateway.baseUrl,
      apiKey,
      close: async () => undefined,
    });
    for (const read of await Promise.all(
      Array.from({ length: 20 }, () =>
        client.post('/v1/chat/completions', { model, messages, stream: true }).then(readTimed),
      ),
    )) {
      expect(read.events.at(-1)?.data).toBe('[DONE]');
    }
    await sleep(500);
    const inspectorUrl = gateway.inspectorUrl as string;
    const liveBefore = await liveMemoryMb(inspectorUrl);
    const before = gateway.rssMb();
    upstream.setDefaultScript('ok:50000:0');
    const body = JSON.stringify({ model, messages, stream: true });
    // ~200 B per chunk: 50,000 chunks is a 10 MB stream per client, 1 GB in all if nothing pushed back.
    const head = `POST /v1/chat/completions HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const { hostname, port } = new URL(gateway.baseUrl);
    const sockets: Socket[] = [];
    let received = 0;
    for (let index = 0; index < 100; index += 1) {
      const socket = connect({ host: hostname, port: Number(port) });
      socket.on('error', () => undefined);
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        // Read one chunk, then never again: the slowest reader there is.
        socket.pause();
      });
      socket.write(head);
      sockets.push(socket);
    }
    let peak = before;
    for (let sample = 0; sample < 30; sample += 1) {
      await sleep(100);
      peak = Math.max(peak, gateway.rssMb());
    }
    // Measured while all 100 readers are still paused and their streams open.
    const liveAfter = await liveMemoryMb(inspectorUrl);
    for (const socket of sockets) socket.destroy();
    upstream.setDefaultScript('ok:3:0');
    const held = liveAfter - liveBefore;
    recordFigure(
      21,
      'node-server (process)',
      `100 paused readers of 10 MB streams for 3 s: ${(received / mib).toFixed(1)} MB reached the clients; gateway live memory ${liveBefore.toFixed(1)} MB before, ${liveAfter.toFixed(1)} MB with the readers paused (${held >= 0 ? '+' : ''}${held.toFixed(1)} MB); RSS ${before.toFixed(1)} MB before, peak ${peak.toFixed(1)} MB (+${(peak - before).toFixed(1)} MB)`,
      'gateway memory + <= 50 MB',
    );
    // 1 GB would have to pass through the gateway if it did not push back.
    expect(received).toBeLessThan(100 * mib);
    expect(held).toBeLessThanOrEqual(50);
    // The window lasts until the upstream's SSE fills the kernel buffers of the 100 connections (the
    // test's timers wait behind it), far longer on a loaded machine: hence the test's timeout.
  }, 150_000);
});
