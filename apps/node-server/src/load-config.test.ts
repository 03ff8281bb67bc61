import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';

const directories: string[] = [];

afterAll(async () => {
  await Promise.all(
    directories.map((directory) => rm(directory, { recursive: true, force: true })),
  );
});

async function configFile(name: string, text: string): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'infergate-config-'));
  directories.push(directory);
  const file = join(directory, name);
  await writeFile(file, text);
  return file;
}

describe('loadConfig', () => {
  it('generates one key when none is configured (zero-config start)', async () => {
    const { config, generatedKey } = await loadConfig({});
    expect(generatedKey).toMatch(/^ig-[0-9a-f]{32}$/);
    expect(config.keys).toEqual([generatedKey]);
    expect(config.server).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(config.upstreams.every((upstream) => upstream.local)).toBe(true);
  });

  it('takes keys, HOST and PORT from the environment and generates none', async () => {
    const { config, generatedKey } = await loadConfig({
      INFERGATE_API_KEYS: 'key-a, key-b',
      HOST: '0.0.0.0',
      PORT: '9090',
    });
    expect(generatedKey).toBeUndefined();
    expect(config.keys).toEqual(['key-a', 'key-b']);
    expect(config.server).toEqual({ host: '0.0.0.0', port: 9090 });
  });

  it('reads a YAML file with ${NAME} substitution', async () => {
    const file = await configFile(
      'gateway.yaml',
      [
        'keys: ["${TEST_KEY}"]',
        'upstreams:',
        '  - name: text-a',
        '    url: http://10.0.0.5:8000',
        '    protocol: openai',
        '    models: { alpha36-35b-a3b-instruct: served-name-1 }',
        'timeouts: { idle_ms: 1234 }',
      ].join('\n'),
    );
    const { config, generatedKey } = await loadConfig({
      INFERGATE_CONFIG: file,
      TEST_KEY: 'from-env',
    });
    expect(generatedKey).toBeUndefined();
    expect(config.keys).toEqual(['from-env']);
    expect(config.timeouts.idleMs).toBe(1234);
    expect(config.upstreams.map((upstream) => upstream.name)).toEqual(['text-a']);
  });

  it('reads a JSON file', async () => {
    const file = await configFile(
      'gateway.json',
      JSON.stringify({ master_url: 'https://master.example.com', keys: ['k1'] }),
    );
    const { config } = await loadConfig({ INFERGATE_CONFIG: file });
    expect(config.masterUrl).toBe('https://master.example.com');
  });

  it('names the field at fault', async () => {
    const file = await configFile(
      'bad.yaml',
      'upstreams:\n  - name: a\n    url: http://x:1\n    protocol: grpc\n    models: {}\n',
    );
    await expect(loadConfig({ INFERGATE_CONFIG: file })).rejects.toThrow(
      /upstreams\[0\]\.protocol/,
    );
    await expect(
      loadConfig({ INFERGATE_CONFIG: await configFile('bad.yaml', 'timeouts: { idel_ms: 5 }') }),
    ).rejects.toThrow(/timeouts\.idel_ms/);
    await expect(
      loadConfig({ INFERGATE_CONFIG: await configFile('gateway.toml', 'a = 1') }),
    ).rejects.toThrow(/^INFERGATE_CONFIG: /);
    await expect(loadConfig({ INFERGATE_CONFIG: '/no/such/file.yaml' })).rejects.toThrow(
      /INFERGATE_CONFIG: .*no such file/,
    );
    await expect(
      loadConfig({ INFERGATE_CONFIG: await configFile('broken.json', '{"keys": [') }),
    ).rejects.toThrow(/INFERGATE_CONFIG: .*not valid JSON/);
    await expect(
      loadConfig({
        INFERGATE_CONFIG: await configFile('missing.yaml', 'keys: ["${NOT_SET_ANYWHERE}"]'),
      }),
    ).rejects.toThrow(/NOT_SET_ANYWHERE/);
  });
});
