import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startRecordingUpstream, type RecordingUpstream } from '@infergate/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const manifest = JSON.parse(
  await readFile(join(repoRoot, 'packages/infergate/package.json'), 'utf8'),
) as { engines: { node: string } };
// The oldest Node the CLI says it runs on: npm checks every dependency's engines against it.
const oldestNode = /^>=(\d+\.\d+\.\d+)$/.exec(manifest.engines.node)?.[1] as string;

let work: string;
let installed: string;
let running: ChildProcess | undefined;
/** Everything the running `npx infergate` printed on stdout so far. */
let runningOutput = (): string => '';
/** Everything it printed on stderr so far: the generated key's line. */
let runningTerminal = (): string => '';

/** The environment of a user's shell, without the test runner's INFERGATE_* or npm_* variables. */
function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (
      value !== undefined &&
      !name.startsWith('INFERGATE_') &&
      !name.startsWith('npm_') &&
      name !== 'PORT' &&
      name !== 'HOST'
    )
      env[name] = value;
  }
  // npx must run the installed bin and never fetch a package called infergate from the registry.
  return { ...env, npm_config_yes: 'false', ...extra };
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'infergate-packed-'));
  // What `pnpm release` would publish (the last commit, its changesets applied), checked by the script
  // itself: no workspace: range left, a CHANGELOG.md and engines in each. Their third-party
  // dependencies come from the registry, as for a user.
  const tarballs = join(work, 'tarballs');
  await run('node', [join(repoRoot, 'scripts/release.mjs'), '--out', tarballs], {
    cwd: repoRoot,
    timeout: 600_000,
  });
  const files = (await readdir(tarballs)).map((file) => join(tarballs, file));
  expect(files.map((file) => file.replace(/^.*\/|-\d+\.\d+\.\d+\.tgz$/g, '')).sort()).toEqual([
    'infergate',
    'infergate-core',
    'infergate-local-backend',
    'infergate-node-runtime',
    'infergate-sdk',
    'infergate-upstream',
  ]);

  installed = join(work, 'app');
  await run('mkdir', [installed]);
  await writeFile(
    join(installed, 'package.json'),
    JSON.stringify({ name: 'an-operators-folder', private: true }),
  );
  // Bounded: npm retries a failed fetch itself; a stalled install fails the suite after 8 minutes.
  const { stderr } = await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--loglevel=warn',
      '--fetch-retries=4',
      `--node-version=${oldestNode}`,
      ...files,
    ],
    {
      cwd: installed,
      env: userEnv(),
      timeout: 480_000,
    },
  );
  // Every dependency runs on the oldest Node the CLI supports: npm has nothing to warn about.
  expect(stderr).not.toContain('EBADENGINE');
});

function stopRunning(): void {
  // npx runs the bin in a child process of its own: the whole group goes.
  if (running?.pid !== undefined && running.exitCode === null)
    process.kill(-running.pid, 'SIGKILL');
  running = undefined;
}

afterEach(stopRunning);

afterAll(async () => {
  if (work !== undefined) await rm(work, { recursive: true, force: true });
});

/** `npx infergate <args>` in the install folder, as the README has it, until its banner is complete. */
function startInstalled(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<string> {
  const child = spawn('npx', ['infergate', ...args], {
    cwd: installed,
    env: userEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running = child;
  let stdout = '';
  let stderr = '';
  runningOutput = () => stdout;
  runningTerminal = () => stderr;
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (/^Configuration: .*\n/m.test(stdout)) resolve(stdout);
    });
    child.once('close', (code) =>
      reject(
        new Error(`npx infergate exited with ${code} before its banner:\n${stdout}\n${stderr}`),
      ),
    );
  });
}

function baseUrlOf(banner: string): string {
  const url = /listening on (http:\/\/\S+?);/.exec(banner)?.[1];
  if (url === undefined) throw new Error(`no address in the banner:\n${banner}`);
  return url;
}

async function chat(
  baseUrl: string,
  key: string,
  model: string,
): Promise<{
  status: number;
  body: { model?: string; choices?: Array<{ message: { content: string } }> };
}> {
  const response = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello' }] }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { choices?: Array<{ message: { content: string } }> },
  };
}

describe('the infergate package, packed and installed with npm in an empty folder', () => {
  it('npx infergate --help prints the usage and exits 0', async () => {
    const { stdout } = await run('npx', ['infergate', '--help'], {
      cwd: installed,
      env: userEnv(),
      timeout: 60_000,
    });
    expect(stdout).toContain('Usage: infergate [--config <file>]');
    expect(stdout).toContain('INFERGATE_CONFIG');
  });

  it('npx infergate: the zero-config gateway answers a chat completion from the local backend with the generated key', async () => {
    const banner = await startInstalled([]);
    expect(banner).toContain('the embedded local backend serves every catalogue model');
    // The generated key is shown on the terminal (stderr), never in stdout's log stream.
    const keyLine = /^API key \(generated because none is configured; shown only now\): (\S+)$/m;
    await expect.poll(() => runningTerminal(), { timeout: 5_000 }).toMatch(keyLine);
    const key = keyLine.exec(runningTerminal())?.[1] as string;
    expect(banner).not.toContain(key);
    const { status, body } = await chat(baseUrlOf(banner), key, 'general-std');
    expect(status).toBe(200);
    expect(body.choices?.[0]?.message.content.length).toBeGreaterThan(0);
  });

  it('SIGTERM to npx, as a supervisor stops it, reaches the gateway: it drains, says so and exits', async () => {
    const config = join(work, 'drain.yaml');
    await writeFile(
      config,
      'keys: ["drain-key-0123456789"]\ntimeouts: { drain_delay_ms: 300, shutdown_grace_ms: 1000 }\n',
    );
    const banner = await startInstalled(['--config', config], { LOG_LEVEL: 'info' });
    const launcher = running as ChildProcess;
    expect((await chat(baseUrlOf(banner), 'drain-key-0123456789', 'general-std')).status).toBe(200);
    // npx runs the bin through `sh -c`; neither passes SIGTERM on. 'close' comes once every holder of
    // the output pipe is gone: npx, its shell and the gateway.
    const closed = new Promise<void>((resolve) => launcher.once('close', () => resolve()));
    process.kill(launcher.pid as number, 'SIGTERM');
    await closed;
    const lines = runningOutput()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((line) => line.msg === 'shutting down')).toMatchObject({
      signal: 'SIGTERM',
      drainMs: 300,
    });
  }, 30_000);

  describe('with a configuration file', () => {
    let upstream: RecordingUpstream;

    beforeAll(async () => {
      upstream = await startRecordingUpstream();
    });

    afterAll(async () => {
      await upstream?.close();
    });

    async function expectConfiguredStartServes(): Promise<void> {
      upstream.clear();
      const config = join(work, 'gateway.yaml');
      await writeFile(
        config,
        [
          'keys: ["${TEAM_KEY}"]',
          'upstreams:',
          '  - name: text-a',
          `    url: ${upstream.url}`,
          '    protocol: openai',
          '    models: { alpha36-35b-a3b-instruct: served-name-1 }',
          '',
        ].join('\n'),
      );
      const banner = await startInstalled(['--config', config], { TEAM_KEY: 'packed-cli-key' });
      expect(banner).toContain('upstreams: text-a');
      expect(banner).not.toContain('packed-cli-key');
      const { status, body } = await chat(
        baseUrlOf(banner),
        'packed-cli-key',
        'alpha36-35b-a3b-instruct',
      );
      expect(status).toBe(200);
      const [seen] = upstream.requestsTo('/v1/chat/completions');
      expect(seen?.body).toMatchObject({
        model: 'served-name-1',
        messages: [{ role: 'user', content: 'Hello' }],
      });
      expect(body.model).toBe('alpha36-35b-a3b-instruct');
    }

    it('npx infergate --config gateway.yaml serves a request through the configured upstream', async () => {
      await expectConfiguredStartServes();
    });

    // Last: it removes the optional dependency from the install, as `npm install --omit=optional` would.
    it('without the optional local backend: a configured start still serves, a zero-config one says what to install in one line', async () => {
      await rm(join(installed, 'node_modules', '@infergate', 'local-backend'), {
        recursive: true,
        force: true,
      });
      await expectConfiguredStartServes();
      stopRunning();
      const failed = await run('npx', ['infergate'], {
        cwd: installed,
        env: userEnv({ PORT: '0', HOST: '127.0.0.1' }),
        timeout: 60_000,
      }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed.code).toBe(1);
      const ours = failed.stderr.split('\n').filter((line) => line.startsWith('infergate:'));
      expect(ours).toEqual([
        'infergate: the embedded local backend (@infergate/local-backend) is not installed, and models no upstream serves need it; install it (npm install @infergate/local-backend) or configure upstreams for every model (INFERGATE_CONFIG or --config)',
      ]);
      expect(failed.stderr).not.toMatch(/^\s+at /m);
    });
  });
});
