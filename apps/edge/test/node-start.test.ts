import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startEdgeNodeServer } from '../src/start-edge-node-server.js';

const mainNode = fileURLToPath(new URL('../dist/main-node.js', import.meta.url));

describe('the edge app on Node', () => {
  it('generates a key when none is configured and serves with the local backend in-process', async () => {
    const server = await startEdgeNodeServer({ env: {}, host: '127.0.0.1', port: 0 });
    try {
      expect(server.generatedKey).toMatch(/^ig-[0-9a-f]{32}$/);
      expect(server.config.upstreams.every((upstream) => upstream.local)).toBe(true);
      const response = await fetch(`${server.url}/v1/embeddings`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${server.generatedKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ model: 'gamma-m3', input: 'hello' }),
      });
      expect(response.status).toBe(200);
      expect((await response.json()) as unknown).toMatchObject({
        object: 'list',
        data: [{ object: 'embedding' }],
      });
    } finally {
      await server.close();
    }
  });

  it('stops the start with the field at fault for a bad configuration', async () => {
    await expect(
      startEdgeNodeServer({
        env: { INFERGATE_CONFIG_JSON: '{"limits": {"body_json_bytes": "big"}}' },
        port: 0,
      }),
    ).rejects.toThrow(/limits\.body_json_bytes/);
    await expect(
      startEdgeNodeServer({ env: { INFERGATE_CONFIG_JSON: '{' }, port: 0 }),
    ).rejects.toThrow(/INFERGATE_CONFIG_JSON/);
  });

  it('the built CLI prints its help', async () => {
    const child = spawn(process.execPath, [mainNode, '--help'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(output).toContain('INFERGATE_LOCAL_BACKEND_URL');
    expect(output).toContain('8787');
  });

  it('the built CLI shows its key on stderr only, logs one JSON line per request on stdout, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [mainNode, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        INFERGATE_API_KEYS: '',
        INFERGATE_CONFIG_JSON: '',
        INFERGATE_LOCAL_BACKEND_URL: '',
        LOG_LEVEL: 'info',
      },
    });
    let terminal = '';
    child.stderr.on('data', (chunk: Buffer) => (terminal += chunk.toString()));
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const first = String((await lines.next()).value);
    const address = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(first)?.[1];
    expect(address, first).toBeDefined();
    await expect.poll(() => terminal, { timeout: 2_000 }).toMatch(/: ig-[0-9a-f]{32}\n/);
    const key = /: (ig-[0-9a-f]{32})\n/.exec(terminal)?.[1] as string;
    const models = await fetch(`${address}/v1/models`, {
      headers: { authorization: `Bearer ${key}`, 'x-request-id': 'edge-cli-1' },
    });
    expect(models.status).toBe(200);
    await models.body?.cancel();
    const refused = await fetch(`${address}/v1/models`, {
      headers: { 'x-request-id': 'edge-cli-2' },
    });
    expect(refused.status).toBe(401);
    await refused.body?.cancel();
    const logged = [
      JSON.parse(String((await lines.next()).value)),
      JSON.parse(String((await lines.next()).value)),
    ] as unknown;
    expect(logged).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'request',
        requestId: 'edge-cli-1',
        method: 'GET',
        route: '/v1/models',
        status: 200,
      }),
      expect.objectContaining({
        level: 40,
        msg: 'request',
        requestId: 'edge-cli-2',
        method: 'GET',
        route: '/v1/models',
        status: 401,
      }),
    ]);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });
});
