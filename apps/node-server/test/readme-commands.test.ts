import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const readme = readFileSync(`${repoRoot}README.md`, 'utf8');

/** The shell commands of the ```sh blocks in `markdown`: continuation lines joined, comments and blank lines left out. */
function shellCommands(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
  return blocks.flatMap((block) =>
    block
      .replace(/\\\n\s*/g, '')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#')),
  );
}

function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`README.md has no "## ${heading}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

describe("README.md's test command", () => {
  it('is what .ci/run runs, character for character, with nothing but shell settings before it', () => {
    const testLine = shellCommands(readme.slice(0, readme.indexOf('\n## '))).find((line) =>
      line.includes('pnpm test'),
    );
    expect(testLine).toBeDefined();
    const ciLines = readFileSync(`${repoRoot}.ci/run`, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#'));
    // Strict mode, the repository root, CI's flag: none of them installs or runs anything.
    expect(ciLines).toEqual([
      'set -euo pipefail',
      'cd "$(dirname "$0")/.."',
      'export CI=true',
      testLine,
    ]);
  });
});

describe('the start command in README.md, docs/ and the package READMEs', () => {
  // pnpm prints a header before a script and ` ELIFECYCLE  Command failed` after one that exits
  // non-zero (a port in use, a bad configuration): `-s` keeps both out of what a reader sees.
  it('is `pnpm -s start` in every shell block', () => {
    const pages = [
      'README.md',
      ...readdirSync(`${repoRoot}docs`)
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`),
      ...['apps', 'packages'].flatMap((group) =>
        readdirSync(`${repoRoot}${group}`)
          .map((name) => `${group}/${name}/README.md`)
          .filter((page) => existsSync(`${repoRoot}${page}`)),
      ),
    ];
    const loud = pages.flatMap((page) =>
      shellCommands(readFileSync(`${repoRoot}${page}`, 'utf8'))
        .filter((command) => /\bpnpm (?:run )?start\b/.test(command))
        .map((command) => `${page}: ${command}`),
    );
    expect(pages).toContain('docs/operations.md');
    expect(loud.join('\n'), 'write `pnpm -s start`').toBe('');
  });
});

describe("README.md's quick start, run as a reader runs it", () => {
  const commands = shellCommands(section(readme, 'Quick start'));
  let stop: (() => void) | undefined;

  afterAll(() => stop?.());

  function freePort(): Promise<number> {
    const server = createServer();
    return new Promise((resolve) =>
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      }),
    );
  }

  it('starts the gateway with its start command, then the commands after it (setting the key, the curl) answer a chat completion', async () => {
    const start = commands.find((command) => command.includes('pnpm -s start'));
    const curl = commands.find((command) => command.startsWith('curl '));
    // What a reader types in the second terminal, in order: everything after the start command.
    const afterStart = commands.slice(commands.indexOf(start ?? '') + 1);
    if (start === undefined || curl === undefined)
      throw new Error(
        `the quick start has no start and curl commands: ${JSON.stringify(commands)}`,
      );
    // The one change: a free port instead of 8080, which another process on this machine may hold.
    const port = await freePort();
    const child = spawn('sh', ['-c', start], {
      cwd: repoRoot,
      env: { ...process.env, PORT: String(port), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    stop = () => {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    };
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no start within 4 minutes:\n${output}`)),
        240_000,
      );
      const read = (chunk: Buffer): void => {
        output += chunk.toString();
        if (output.includes(`listening on http://127.0.0.1:${port}`)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on('data', read);
      child.stderr?.on('data', read);
      child.once('close', (code) =>
        reject(new Error(`the start command exited with ${code}:\n${output}`)),
      );
    });
    const script = afterStart
      .map((command) => (command === curl ? `${command} -w '\\n%{http_code}'` : command))
      .join('\n')
      .replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`);
    const answer = execFileSync('sh', ['-c', script], { encoding: 'utf8', timeout: 60_000 });
    const status = answer.slice(answer.lastIndexOf('\n') + 1);
    expect(status, answer).toBe('200');
    expect(JSON.parse(answer.slice(0, answer.lastIndexOf('\n')))).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { role: 'assistant' } }],
    });
  }, 300_000);
});
