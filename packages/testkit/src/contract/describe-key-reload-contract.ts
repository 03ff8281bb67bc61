import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedUpstream, type ScriptedUpstream } from '../start-scripted-upstream.js';
import { upstreamsServingEverything } from '../upstreams-serving-everything.js';

/** A Node entry point run as its own process with a configuration file, logging at info on stdout. */
export interface ReloadableProcess {
  baseUrl: string;
  child: ChildProcess;
  /** The INFERGATE_CONFIG file it was started with: the test rewrites it. */
  configPath: string;
  /** Everything it has written to stdout so far. */
  stdout(): string;
  stop(): Promise<unknown>;
}

export interface KeyReloadContractOptions {
  /** Shown in the suite's title. */
  name: string;
  /** Starts the process from a config-file value, with no key in the environment. */
  start(file: object): Promise<ReloadableProcess>;
}

const keyA = 'ig-reload-a-0123456789abcdef0123456789ab';
const keyB = 'ig-reload-b-0123456789abcdef0123456789ab';
const model = 'alpha36-35b-a3b-instruct';

/**
 * Keys change without a restart: SIGHUP makes the process read its configuration file again. A bad
 * file keeps every key serving and logs the field at fault; a good one applies at once to new
 * requests (a revoked key is 401, a new limit counts), while a stream its old key started runs to
 * its end.
 */
export function runKeyReloadContract(options: KeyReloadContractOptions): void {
  describe(`reloading keys on SIGHUP: ${options.name}`, () => {
    let upstream: ScriptedUpstream;
    let gateway: ReloadableProcess;

    const configWith = (keys: unknown[]): object => ({
      upstreams: upstreamsServingEverything(upstream.url),
      keys,
    });

    const chat = (key: string, stream = false): Promise<Response> =>
      fetch(`${gateway.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'Hello?' }] }),
      });

    const statusOf = async (key: string): Promise<number> => {
      const response = await chat(key);
      await response.arrayBuffer();
      return response.status;
    };

    // Rewrites the file, signals, and returns the JSON log line the reload wrote.
    const reload = async (file: object): Promise<Record<string, unknown>> => {
      writeFileSync(gateway.configPath, JSON.stringify(file));
      const seen = gateway.stdout().length;
      gateway.child.kill('SIGHUP');
      for (let waited = 0; waited < 10_000; waited += 20) {
        const line = gateway
          .stdout()
          .slice(seen)
          .split('\n')
          .find((text) => text.includes('configuration'));
        if (line !== undefined) return JSON.parse(line) as Record<string, unknown>;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no reload line after SIGHUP; stdout: ${gateway.stdout().slice(seen)}`);
    };

    beforeAll(async () => {
      upstream = await startScriptedUpstream();
      upstream.setDefaultScript('ok:2:0');
      gateway = await options.start(
        configWith([
          { key: keyA, name: 'team-a' },
          { key: keyB, name: 'team-b' },
        ]),
      );
    });

    afterAll(async () => {
      await gateway?.stop();
      await upstream?.close();
    });

    it('keeps the running keys when the new file is invalid, and names the field', async () => {
      const line = await reload(
        configWith([
          { key: keyA, name: 'team-a' },
          { key: keyB, name: 'team-b', limits: { requests_per_minute: -5 } },
        ]),
      );
      expect(line.msg).toBe('configuration not reloaded: the running configuration stays');
      expect(line.level).toBe(50);
      expect(String(line.reason)).toContain('keys[1].limits.requests_per_minute');
      expect(JSON.stringify(line)).not.toContain(keyB);
      expect(await statusOf(keyA)).toBe(200);
      expect(await statusOf(keyB)).toBe(200);
      // Still alive and serving: SIGHUP's default action would have ended the process.
      expect(gateway.child.exitCode).toBeNull();
    });

    it('revokes a key for the next request while a stream it started runs to its end', async () => {
      upstream.setDefaultScript('ok:20:50');
      const running = await chat(keyB, true);
      expect(running.status).toBe(200);
      const reader = running.body!.getReader();
      const decoder = new TextDecoder();
      let text = decoder.decode((await reader.read()).value);

      const line = await reload(
        configWith([{ key: keyA, name: 'team-a', limits: { requests_per_minute: 2 } }]),
      );
      expect(line.msg).toBe('configuration reloaded: keys applied');
      expect(line.keys).toBe(1);
      upstream.setDefaultScript('ok:2:0');
      expect(await statusOf(keyB)).toBe(401);
      // The new limit counts from the reload on: two requests a minute, the third refused.
      expect(await statusOf(keyA)).toBe(200);
      expect(await statusOf(keyA)).toBe(200);
      expect(await statusOf(keyA)).toBe(429);

      for (let part = await reader.read(); !part.done; part = await reader.read())
        text += decoder.decode(part.value, { stream: true });
      expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
      expect(text).not.toContain('"error"');
    });

    it('applies the keys and names the sections that need a restart', async () => {
      const line = await reload({
        ...configWith([
          { key: keyA, name: 'team-a' },
          { key: keyB, name: 'team-b' },
        ]),
        timeouts: { first_event_ms: 12_345 },
      });
      expect(line.msg).toBe(
        'configuration reloaded: keys applied; changes to timeouts apply at the next restart',
      );
      expect(line.needRestart).toEqual(['timeouts']);
      expect(await statusOf(keyB)).toBe(200);
    });
  });
}
