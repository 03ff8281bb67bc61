import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runKeyReloadContract, type ReloadableProcess } from '@infergate/testkit';

const edgeMain = fileURLToPath(new URL('../dist/main-node.js', import.meta.url));

// The edge app's Node entry point (dist/main-node.js) with INFERGATE_CONFIG, a file it reads again on
// SIGHUP; its request lines and the reload's line at info on stdout.
async function startEdgeProcess(file: object): Promise<ReloadableProcess> {
  if (!existsSync(edgeMain)) throw new Error(`${edgeMain} is missing: run pnpm build first`);
  const directory = mkdtempSync(join(tmpdir(), 'infergate-edge-reload-'));
  const configPath = join(directory, 'config.json');
  writeFileSync(configPath, JSON.stringify(file));
  const child = spawn(process.execPath, [edgeMain], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      INFERGATE_CONFIG: configPath,
      INFERGATE_CONFIG_JSON: '',
      INFERGATE_API_KEYS: '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    },
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const exited = new Promise<void>((resolve) =>
    child.once('close', () => {
      rmSync(directory, { recursive: true, force: true });
      resolve();
    }),
  );
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', () => reject(new Error(`exited before listening: ${stdout}`)));
  });
  return {
    baseUrl,
    child,
    configPath,
    stdout: () => stdout,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

runKeyReloadContract({ name: 'edge app on Node', start: startEdgeProcess });
