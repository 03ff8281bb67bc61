import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonReply, StartedGateway } from '../contract/contract-client.js';
import { expectCompatError, expectNativeError } from '../contract/expect-envelopes.js';
import { rawHttpRequest, type RawHttpResponse } from '../raw-http-request.js';
import type { FaultMatrixTarget } from './fault-matrix-target.js';
import { recordFigure } from './record-figure.js';
import { settledMemoryMb, signedMb } from './settled-memory.js';

// A bound on blocking, not on speed: wide, since the local backend's worker threads compete with this
// one for a loaded 2-core machine. Before these rows held, one such request held /healthz for seconds.
const probeBoundMs = 1000;
// Memory back to where it was. RSS may keep what a local backend worker's heap grew to below the size at
// which it is replaced (256 MB); a larger one is replaced.
const liveBoundMb = 50;
const rssBoundMb = 200;
const rssSettleMs = 10_000;
const mib = 1024 * 1024;
// The default of `limits.body_text_bytes`.
const textLimit = 8 * mib;
const model = 'alpha36-35b-a3b-instruct';

interface Probed {
  reply: JsonReply;
  /** The slowest /healthz answer while the request ran, in ms. */
  worstMs: number;
  probes: number;
  requestMs: number;
}

/** The answer of a raw request as the contract client reads one. */
function jsonReply(raw: RawHttpResponse): JsonReply {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw.headers))
    if (typeof value === 'string') headers.set(name, value);
  let json: unknown;
  try {
    json = JSON.parse(raw.body);
  } catch {
    json = undefined;
  }
  return { status: raw.status, headers, json, text: raw.body };
}

/**
 * Sends `body` while probing /healthz. The body is encoded before the probe starts and written to the
 * socket in one piece: the client shares this event loop with the gateway, so its own work (a fetch
 * streams and copies a body of megabytes chunk by chunk) would count against the gateway.
 */
async function whileProbing(gateway: StartedGateway, path: string, body: string): Promise<Probed> {
  const bytes = Buffer.from(body);
  let running = true;
  let worstMs = 0;
  let probes = 0;
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${gateway.baseUrl}/healthz`);
      await response.arrayBuffer();
      worstMs = Math.max(worstMs, performance.now() - started);
      probes += 1;
      await sleep(10);
    }
  })();
  const started = performance.now();
  try {
    const raw = await rawHttpRequest(`${gateway.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${gateway.apiKey}`,
        'content-type': 'application/json',
        'content-length': String(bytes.length),
      },
      chunks: [bytes],
    });
    return { reply: jsonReply(raw), worstMs, probes, requestMs: performance.now() - started };
  } finally {
    running = false;
    await probe;
  }
}

function describeProbe(result: Probed): string {
  return `${result.reply.status} after ${result.requestMs.toFixed(0)} ms; /healthz worst ${result.worstMs.toFixed(1)} ms over ${result.probes} probes`;
}

/** Letters without spaces: one long word, the slowest kind of text to tokenize. */
function oneLongWord(length: number): string {
  return Array.from({ length }, (_, index) => String.fromCharCode(97 + ((index * 7919) % 26))).join(
    '',
  );
}

/**
 * No single request holds the event loop: heavy requests at the default limits against the app with no
 * configuration (the local backend serves every model, as on a laptop), each while /healthz is probed.
 * Each is answered (or refused with its 400/413), the probe's slowest answer stays under a wide bound,
 * and live memory is back where it was once the request is over.
 */
export function describeEventLoopRows(target: FaultMatrixTarget): void {
  describe(`fault matrix, one request against the event loop: ${target.name}`, () => {
    let gateway: StartedGateway;

    beforeAll(async () => {
      gateway = await target.start({});
      // The first local-backend request starts its worker and loads the tokenizer: not what is measured.
      const warm = await whileProbing(
        gateway,
        '/tokenize',
        JSON.stringify({ model, prompt: 'warm up' }),
      );
      expect(warm.reply.status).toBe(200);
    }, 120_000);

    afterAll(async () => {
      await gateway?.close();
    });

    async function measured(
      row: number,
      title: string,
      path: string,
      body: string,
      statuses: readonly number[],
    ): Promise<JsonReply> {
      const before = await settledMemoryMb();
      const result = await whileProbing(gateway, path, body);
      let after = await settledMemoryMb();
      // A worker thread being replaced gives its memory back once it has stopped.
      for (
        const startedAt = performance.now();
        after.rss - before.rss >= rssBoundMb && performance.now() - startedAt < rssSettleMs;
      ) {
        await sleep(250);
        after = await settledMemoryMb();
      }
      const memory = `live ${signedMb(after.live - before.live)} MB, RSS ${signedMb(after.rss - before.rss)} MB`;
      recordFigure(
        row,
        target.name,
        `${title}: ${describeProbe(result)}; ${memory}`,
        `/healthz < ${probeBoundMs} ms; live +${liveBoundMb} MB, RSS +${rssBoundMb} MB`,
      );
      expect(statuses, `${result.reply.status} ${result.reply.text.slice(0, 300)}`).toContain(
        result.reply.status,
      );
      expect(result.worstMs).toBeLessThan(probeBoundMs);
      expect(after.live - before.live).toBeLessThan(liveBoundMb);
      expect(after.rss - before.rss).toBeLessThan(rssBoundMb);
      return result.reply;
    }

    it('row 31: a 262,144-character /tokenize prompt is tokenized off the event loop', async () => {
      const reply = await measured(
        31,
        '/tokenize, 262,144 characters',
        '/tokenize',
        JSON.stringify({ model, prompt: oneLongWord(262_144) }),
        [200],
      );
      expect((reply.json as { count: number }).count).toBeGreaterThan(10_000);
    }, 180_000);

    it('row 32: 100,000 rerank documents are refused on their count, naming the field', async () => {
      const documents = Array.from({ length: 100_000 }, (_, index) => `doc ${index}`);
      const reply = await measured(
        32,
        'rerank, 100,000 documents',
        '/compat/v2/rerank',
        JSON.stringify({ model: 'gamma-reranker-v2-m3', query: 'doc', documents }),
        [400],
      );
      expectCompatError(reply, 400);
      expect((reply.json as { message: string }).message).toContain('documents');
    }, 180_000);

    it('row 33: a chat prompt over the text limit is refused with 413; one just under it is answered', async () => {
      const words = 'lorem ipsum dolor sit amet ';
      const chat = (bytes: number) =>
        JSON.stringify({
          model,
          max_tokens: 16,
          messages: [{ role: 'user', content: words.repeat(Math.floor(bytes / words.length)) }],
        });
      const over = await measured(
        33,
        'chat, text 1 MiB over the limit',
        '/v1/chat/completions',
        chat(textLimit + mib),
        [413],
      );
      expectNativeError(over, 413);
      expect(over.text).toContain(String(textLimit));
      // Some 1.7M tokens: more than the model's window, which the local backend finds by tokenizing it.
      const under = await measured(
        33,
        'chat, text 64 KiB under the limit',
        '/v1/chat/completions',
        chat(textLimit - 64 * 1024),
        [200, 400],
      );
      if (under.status === 400) expect(under.text).toContain('maximum context length');
    }, 300_000);

    it('row 34: one million messages (30 MB) are refused with 413 before they are parsed', async () => {
      const messages = new Array(1_000_000).fill({ role: 'user', content: 'hi' });
      const reply = await measured(
        34,
        'chat, 1,000,000 messages',
        '/v1/chat/completions',
        JSON.stringify({ model, messages }),
        [413],
      );
      expectNativeError(reply, 413);
    }, 180_000);
  });
}
