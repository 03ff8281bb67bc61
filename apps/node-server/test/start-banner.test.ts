import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { startMainUntilBanner, type StartedMain } from './run-built-main.js';

let started: StartedMain | undefined;

afterEach(async () => {
  await started?.stop();
  started = undefined;
});

/** The banner's example (the indented lines after "Try it"), run as printed by a shell, with `env` in that shell. */
function runPrintedExample(
  banner: string,
  env: Record<string, string> = {},
): { status: string; body: unknown } {
  const lines = /^Try it.*:\n((?: {2}.*\n)+)/m.exec(banner)?.[1]?.trimEnd().split('\n');
  if (lines === undefined || !lines.at(-1)?.trimStart().startsWith('curl '))
    throw new Error(`no example ending in a curl in the banner:\n${banner}`);
  const script = lines
    .map((line, index) => (index === lines.length - 1 ? `${line} -w '\\n%{http_code}'` : line))
    .join('\n');
  const output = execFileSync('sh', ['-c', script], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env },
    timeout: 30_000,
  });
  const status = output.slice(output.lastIndexOf('\n') + 1);
  return { status, body: JSON.parse(output.slice(0, output.lastIndexOf('\n'))) };
}

describe('the start banner tells a newcomer what to do next', () => {
  it('zero-config: the generated key on the terminal only, the docs URL, a curl that works as printed once the key is exported', async () => {
    started = await startMainUntilBanner({ PORT: '0' });
    // stderr is written before the banner, but the two pipes are read in whichever order they arrive.
    await expect
      .poll(() => started?.terminal(), { timeout: 2_000 })
      .toMatch(/^API key \(generated because none is configured; shown only now\): ig-\S+$/m);
    const key = /^API key \(generated because none is configured; shown only now\): (\S+)$/m.exec(
      started.terminal(),
    )?.[1] as string;
    // stdout is the log stream: the key is never in it.
    expect(started.banner).not.toContain(key);
    expect(started.banner).toContain(`Docs: ${started.baseUrl}/docs\n`);
    expect((await fetch(`${started.baseUrl}/docs`)).status).toBe(200);
    // The client's variable, as README.md and docs/ name it; the key itself is set from the terminal's line.
    expect(started.banner).toContain(
      `Try it (INFERGATE_API_KEY: the API key printed above):\n  curl -s ${started.baseUrl}/v1/chat/completions -H "Authorization: Bearer $INFERGATE_API_KEY"`,
    );
    const { status, body } = runPrintedExample(started.banner, { INFERGATE_API_KEY: key });
    expect(status).toBe('200');
    expect(body).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { role: 'assistant' } }],
    });
    expect(started.banner).toMatch(
      /^Configuration: none; .*--config <file> \(or INFERGATE_CONFIG=<file>\)/m,
    );
  });

  it('configured keys: the curl takes the client variable INFERGATE_API_KEY set to any of them; the keys themselves are never printed', async () => {
    const keys = 'banner-key-one,banner-key-two';
    started = await startMainUntilBanner({ PORT: '0', INFERGATE_API_KEYS: keys });
    expect(started.banner).not.toContain('banner-key');
    expect(started.banner).not.toContain('API key (generated');
    expect(started.terminal()).not.toContain('API key (generated');
    expect(started.banner).toContain(
      'Try it (INFERGATE_API_KEY: one of the keys in INFERGATE_API_KEYS):\n  curl ',
    );
    expect(started.banner).not.toContain('$INFERGATE_API_KEYS');
    for (const key of keys.split(','))
      expect(runPrintedExample(started.banner, { INFERGATE_API_KEY: key }).status).toBe('200');
  });
});
