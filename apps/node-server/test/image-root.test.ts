import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from './free-loopback-port.js';

/*
 * Issue 18: the container image without a Docker engine. The Dockerfile's only build step is
 * scripts/build-image-root.sh; this test runs that script into a temporary root folder, then runs the
 * Dockerfile's ENTRYPOINT and HEALTHCHECK from that folder as `nobody` (tests run as root here), with
 * the tree read-only to it, as the image's non-root user would. Only the base image is not exercised.
 */

const repository = fileURLToPath(new URL('../../../', import.meta.url));
const dockerfile = readFileSync(join(repository, 'Dockerfile'), 'utf8');
const apiKey = 'ig-image-0123456789abcdef0123456789abcde';

/** A JSON-array instruction of the Dockerfile's final stage (`ENTRYPOINT [...]`, `HEALTHCHECK ... CMD [...]`). */
function execForm(instruction: RegExp): string[] {
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const match = instruction.exec(finalStage.replace(/\\\n\s*/g, ' '));
  if (!match?.[1]) throw new Error(`Dockerfile has no ${String(instruction)} in its final stage`);
  return JSON.parse(match[1]) as string[];
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).map((name) => join(folder, name));
}

let root: string;
let app: string;
let buildOutput: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'infergate-image-root-'));
  // mkdtemp makes the folder private to root: the image's / is world-readable.
  chmodSync(root, 0o755);
  const build = spawnSync('bash', [join(repository, 'scripts/build-image-root.sh'), root], {
    cwd: repository,
    encoding: 'utf8',
    timeout: 400_000,
    env: { ...process.env, CI: 'true' },
  });
  buildOutput = `${build.stdout}\n${build.stderr}`;
  if (build.status !== 0) throw new Error(`build-image-root.sh exited ${String(build.status)}:\n${buildOutput}`);
  app = join(root, 'opt/infergate');
}, 420_000);

afterAll(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

describe('the image root built by scripts/build-image-root.sh', () => {
  it('holds the node-server with production dependencies only, self-contained, writable by root alone', () => {
    expect(existsSync(join(app, 'dist/main.js'))).toBe(true);
    const modules = join(app, 'node_modules');
    for (const name of ['fastify', 'pino', 'yaml', '@infergate/core', '@infergate/upstream', '@infergate/node-runtime', '@infergate/local-backend'])
      expect(existsSync(join(modules, name)), name).toBe(true);
    // The test tools and the other apps stay out of the image.
    for (const name of ['vitest', 'typescript-eslint', '@infergate/testkit', 'openai', 'ioredis', 'playwright-core', 'tsup'])
      expect(existsSync(join(modules, name)), name).toBe(false);
    const files = filesUnder(app);
    const escaping = files.filter((file) => lstatSync(file).isSymbolicLink() && !resolve(dirname(file), readlinkSync(file)).startsWith(`${root}/`));
    expect(escaping).toEqual([]);
    const writableByOthers = files.filter((file) => !lstatSync(file).isSymbolicLink() && (lstatSync(file).mode & 0o022) !== 0);
    expect(writableByOthers).toEqual([]);
    // Workspace packages arrive built, without their TypeScript sources.
    expect(existsSync(join(modules, '@infergate/core/src'))).toBe(false);
  });

  it('runs the ENTRYPOINT as nobody: a chat completion, an embedding and a PNG from the local backend, /healthz, the HEALTHCHECK, exit 0 on SIGTERM', async () => {
    const [command, ...args] = execForm(/^ENTRYPOINT (\[.*\])$/m);
    expect(command).toBe('node');
    expect(dockerfile).toMatch(/^USER 1000:1000$/m);
    expect(dockerfile).toMatch(/^STOPSIGNAL SIGTERM$/m);
    expect(dockerfile).toMatch(/HOST=0\.0\.0\.0/);
    expect(dockerfile).toMatch(/PORT=8080/);
    const inRoot = (argument: string): string => (argument.startsWith('/') ? join(root, argument) : argument);
    const configPath = join(root, 'etc-infergate-config.yaml');
    writeFileSync(configPath, 'timeouts: { drain_delay_ms: 0 }\n', { mode: 0o644 });
    const port = await freeLoopbackPort();
    // The image's environment, on loopback and a free port instead of 0.0.0.0:8080.
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      INFERGATE_CONFIG: configPath,
      INFERGATE_API_KEYS: apiKey,
      LOG_LEVEL: 'warn',
    };
    // Tests run as root here (CI too): drop to nobody like the image's USER. Run by someone else, the
    // test is already unprivileged.
    const asRoot = process.getuid?.() === 0;
    const unprivileged = (commandArgs: string[]): [string, string[]] =>
      asRoot
        ? ['setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', '--inh-caps=-all', '--', process.execPath, ...commandArgs]]
        : [process.execPath, commandArgs];
    const child = spawn(...unprivileged(args.map(inRoot)), { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(child, 'exit');
    try {
      await new Promise<void>((resolvePromise, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listening line after 60 s:\n${output}`)), 60_000);
        child.stdout.on('data', () => {
          if (output.includes('listening on')) {
            clearTimeout(timer);
            resolvePromise();
          }
        });
        child.once('exit', () => reject(new Error(`exited before listening:\n${output}`)));
      });
      const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
      expect(uid).toBe(asRoot ? spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).stdout.trim() : String(process.getuid?.()));
      expect(uid).not.toBe('0');

      const baseUrl = `http://127.0.0.1:${port}`;
      const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
      const post = (path: string, body: unknown) => fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      const chat = await post('/v1/chat/completions', {
        model: 'alpha36-35b-a3b-instruct',
        messages: [{ role: 'user', content: 'Hello from the image.' }],
        max_tokens: 16,
      });
      expect(chat.status).toBe(200);
      const completion = (await chat.json()) as { object: string; choices: { message: { content: string } }[]; usage: { completion_tokens: number } };
      expect(completion.object).toBe('chat.completion');
      expect(completion.choices[0]?.message.content.length).toBeGreaterThan(0);
      expect(completion.usage.completion_tokens).toBeGreaterThan(0);
      const embedding = await post('/v1/embeddings', { model: 'alpha3-vl-embedding-8b', input: 'hello' });
      expect(embedding.status).toBe(200);
      expect(((await embedding.json()) as { data: { embedding: number[] }[] }).data[0]?.embedding.length).toBeGreaterThan(0);
      // sharp's native library, deployed for this platform, draws the image.
      const image = await post('/v1/images/generations', { model: 'alpha-image', prompt: 'a lighthouse', output_format: 'png', quality: 'low', size: '64x64' });
      expect(image.status).toBe(200);
      const png = Buffer.from(((await image.json()) as { data: { b64_json: string }[] }).data[0]?.b64_json ?? '', 'base64');
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      const health = await fetch(`${baseUrl}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });

      const [probe, ...probeArgs] = execForm(/^HEALTHCHECK .*CMD (\[.*\])$/m);
      expect(probe).toBe('node');
      const healthcheck = spawnSync(...unprivileged(probeArgs.map(inRoot)), { env, encoding: 'utf8', timeout: 30_000 });
      expect(healthcheck.status, healthcheck.stderr).toBe(0);

      child.kill('SIGTERM');
      const [code] = await exited;
      expect(code, output).toBe(0);
      // With the gateway gone, the same probe reports the container unhealthy.
      expect(spawnSync(...unprivileged(probeArgs.map(inRoot)), { env, encoding: 'utf8', timeout: 30_000 }).status).toBe(1);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 120_000);
});
