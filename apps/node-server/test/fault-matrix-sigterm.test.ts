import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractClient, readTimed, recordFigure, startScriptedUpstream, upstreamsServingEverything, type ScriptedUpstream } from '@infergate/testkit';

// Row 24's process part: the built CLI (dist/main.js, as `pnpm start` runs it) drains on SIGTERM and exits 0.
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const apiKey = 'ig-sigterm-0123456789abcdef0123456789ab';
const graceMs = 2_000;

describe('fault matrix row 24, the process: node-server', () => {
  let upstream: ScriptedUpstream;

  beforeAll(async () => {
    upstream = await startScriptedUpstream();
    upstream.setDefaultScript('ok:100:50');
  });

  afterAll(async () => {
    await upstream?.close();
  });

  it('SIGTERM with 100 running streams: every stream ends in-protocol and the process exits 0 within the grace', async () => {
    if (!existsSync(main)) throw new Error(`${main} is missing: run pnpm build first (CI builds before testing)`);
    const directory = mkdtempSync(join(tmpdir(), 'infergate-sigterm-'));
    const configPath = join(directory, 'config.json');
    writeFileSync(configPath, JSON.stringify({ upstreams: upstreamsServingEverything(upstream.url), timeouts: { shutdown_grace_ms: graceMs } }));
    const child = spawn(process.execPath, [main], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, INFERGATE_CONFIG: configPath, INFERGATE_API_KEYS: apiKey, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' } });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const baseUrl = await new Promise<string>((resolve, reject) => {
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/\S+?);/.exec(output);
        if (match?.[1]) resolve(match[1]);
      });
      child.once('exit', () => reject(new Error(`exited before listening: ${output}`)));
    });
    const client = new ContractClient({ baseUrl, apiKey, close: async () => undefined });
    const responses = await Promise.all(Array.from({ length: 100 }, () => client.post('/v1/chat/completions', { model: 'alpha36-35b-a3b-instruct', messages: [{ role: 'user', content: 'Go.' }], stream: true })));
    const reads = responses.map((response) => readTimed(response).catch(() => undefined));
    const startedAt = performance.now();
    child.kill('SIGTERM');
    const code = await exited;
    const tookMs = performance.now() - startedAt;
    const results = await Promise.all(reads);
    const ended = results.filter((result) => result?.events.at(-1)?.data === '[DONE]').length;
    recordFigure(24, 'node-server (process)', `SIGTERM with 100 streams: exit ${code} after ${Math.round(tookMs)} ms (grace ${graceMs} ms), ${ended}/100 streams ended in-protocol`, 'within the drain deadline (test 2 s); exit 0');
    expect(code).toBe(0);
    expect(ended).toBe(100);
    expect(tookMs).toBeLessThanOrEqual(graceMs + 1_000);
  }, 30_000);
});
