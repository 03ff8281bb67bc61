import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitForDrain } from '@infergate/node-runtime/wait-for-drain';
import { defaultUpstreamHandlers, fakeAnswer } from './default-upstream-handlers.js';
import { parseScript, type Script } from './parse-script.js';
import type { RecordedRequest } from './recorded-request.js';
import {
  startRecordingUpstream,
  type RecordingUpstream,
  type UpstreamHandler,
} from './start-recording-upstream.js';
import { chatCompletion, chatStreamChunks } from './vllm-payloads.js';
import { writeJson } from './write-json.js';
import { splitFrames, splitStreamText } from './split-stream-text.js';

export interface ScriptedUpstream extends RecordingUpstream {
  /** The script for requests that name none (no `x-test-script`, no request id mapping, no script model name). */
  setDefaultScript(script: string): void;
  /** The script for the request the gateway forwards with this `x-request-id`. */
  scriptForRequest(requestId: string, script: string): void;
  /**
   * A fresh request id mapped to `script`, and the `x-request-id` header that carries it: send the
   * headers, and the gateway forwards the id, so that this one request runs the script.
   */
  scripted(script: string): { requestId: string; headers: Record<string, string> };
}

export interface ScriptedUpstreamOptions {
  /** Size of the `huge` answer; the default is over docs/design.md's 64 MiB response cap. */
  hugeBytes?: number;
}

const canaryUrl = 'http://127.0.0.1:9/redirect-canary';

function isOpen(response: ServerResponse): boolean {
  return !response.destroyed && !response.writableEnded;
}

function sseHead(response: ServerResponse): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
  });
  response.flushHeaders();
}

/** The chat events of a stream with `pieces` content chunks, as SSE frames. */
function chatFrames(model: string, pieces: number, includeUsage: boolean): string[] {
  const words = Array.from({ length: pieces }, (_, index) => `word${index} `);
  return chatStreamChunks(model, words, includeUsage).map(
    (chunk) => `data: ${JSON.stringify(chunk)}\n\n`,
  );
}

/**
 * The same frames as chatFrames, made one at a time: a long stream (row 21's 10 MB per client) must
 * not sit in this stub's memory, which the gateway's memory figures would then include.
 */
function* lazyChatFrames(model: string, pieces: number, includeUsage: boolean): Generator<string> {
  const frame = (chunk: unknown): string => `data: ${JSON.stringify(chunk)}\n\n`;
  const [role, , finish, usage] = chatStreamChunks(model, ['x '], includeUsage);
  yield frame(role);
  for (let index = 0; index < pieces; index += 1)
    yield frame(chatStreamChunks(model, [`word${index} `], false)[1]);
  yield frame(finish);
  if (usage !== undefined) {
    // Each piece is one word, so one token (fakeTokenCount): the same usage chatFrames reports.
    const counts = (usage as { usage: { prompt_tokens: number } }).usage;
    yield frame({
      ...usage,
      usage: { ...counts, completion_tokens: pieces, total_tokens: counts.prompt_tokens + pieces },
    });
  }
}

/** The first `bytes` of a complete answer, for non-streaming scripts that fail mid-body. */
function partialJson(model: string, bytes: number): string {
  return JSON.stringify(chatCompletion(model, fakeAnswer(model))).slice(0, Math.max(1, bytes));
}

async function writeWithBackpressure(
  response: ServerResponse,
  total: number,
  piece: string,
): Promise<void> {
  let written = 0;
  while (written < total && isOpen(response)) {
    written += piece.length;
    if (!response.write(piece)) await waitForDrain(response);
  }
}

/**
 * The misbehaving upstream of the fault matrix: each request runs a script chosen by, in
 * order, its `x-test-script` header, the script mapped to its `x-request-id`, its body's `model` when
 * that parses as a script (configure the gateway's upstream model name as the script), the default
 * script; else `ok:3:0`. It records every request and when each exchange closed.
 */
export async function startScriptedUpstream(
  options: ScriptedUpstreamOptions = {},
): Promise<ScriptedUpstream> {
  const byRequestId = new Map<string, string>();
  const attempts = new Map<string, number>();
  let defaultScript = 'ok:3:0';
  const hugeBytes = options.hugeBytes ?? 70 * 1024 * 1024;

  const pick = (request: RecordedRequest): { text: string; script: Script } => {
    const body =
      typeof request.body === 'object' && request.body !== null
        ? (request.body as Record<string, unknown>)
        : {};
    const requestId = request.headers['x-request-id'];
    const candidates = [
      request.headers['x-test-script'],
      typeof requestId === 'string' ? byRequestId.get(requestId) : undefined,
      body.model,
      defaultScript,
    ];
    for (const candidate of candidates) {
      if (typeof candidate !== 'string') continue;
      const script = parseScript(candidate);
      if (script) return { text: candidate, script };
    }
    return { text: 'ok:3:0', script: { kind: 'ok', chunks: 3, delayMs: 0 } };
  };

  const run: UpstreamHandler = async (request, response) => {
    const { text, script } = pick(request);
    request.script = text;
    const body =
      typeof request.body === 'object' && request.body !== null
        ? (request.body as Record<string, unknown>)
        : {};
    const model = typeof body.model === 'string' ? body.model : 'scripted';
    const streaming = body.stream === true;
    const includeUsage =
      typeof body.stream_options === 'object' &&
      body.stream_options !== null &&
      (body.stream_options as Record<string, unknown>).include_usage === true;
    const defaultHandler = defaultUpstreamHandlers[`${request.method} ${request.path}`];
    const isChat = request.path === '/v1/chat/completions';

    switch (script.kind) {
      case 'ok': {
        if (!isChat && defaultHandler) {
          await sleep(script.chunks * script.delayMs);
          if (isOpen(response)) await defaultHandler(request, response);
          return;
        }
        if (!streaming) {
          await sleep(script.chunks * script.delayMs);
          if (isOpen(response)) writeJson(response, 200, chatCompletion(model, fakeAnswer(model)));
          return;
        }
        sseHead(response);
        for (const frame of lazyChatFrames(model, script.chunks, includeUsage)) {
          if (!isOpen(response)) return;
          // Honour backpressure like a real model server, so a slow reader behind the gateway (fault
          // matrix row 21) shows up as a paused upstream, not as memory buffered in this stub.
          if (!response.write(frame)) await waitForDrain(response);
          if (script.delayMs > 0) await sleep(script.delayMs);
        }
        if (isOpen(response)) response.end('data: [DONE]\n\n');
        return;
      }
      case 'stall-before-headers':
        return;
      case 'stall-after-headers':
        if (streaming) sseHead(response);
        else {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.flushHeaders();
        }
        return;
      case 'stall-after':
      case 'reset-after':
      case 'eof-after': {
        if (streaming) {
          sseHead(response);
          for (const frame of chatFrames(model, script.chunks + 5, false).slice(0, script.chunks))
            response.write(frame);
        } else {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.write(partialJson(model, script.chunks * 16));
        }
        // Let the written chunks reach the gateway before the fault.
        await sleep(20);
        if (script.kind === 'reset-after') response.socket?.resetAndDestroy();
        if (script.kind === 'eof-after') response.end();
        return;
      }
      case 'status': {
        const headers: Record<string, string> = script.status === 429 ? { 'retry-after': '7' } : {};
        if (script.body === 'json') {
          writeJson(
            response,
            script.status,
            {
              error: {
                message: `scripted failure ${script.status}`,
                type: 'BadRequestError',
                param: null,
                code: script.status,
              },
            },
            headers,
          );
        } else if (script.body === 'html') {
          response.writeHead(script.status, { 'content-type': 'text/html', ...headers });
          response.end('<html><body><h1>Bad Gateway</h1><p>nginx at 10.1.2.3</p></body></html>');
        } else if (script.body === 'empty') {
          response.writeHead(script.status, headers);
          response.end();
        } else if (script.body === 'broken') {
          response.writeHead(script.status, { 'content-type': 'application/json', ...headers });
          response.end('{"id": "chatcmpl-1", "choices": [');
        } else {
          response.writeHead(script.status, { 'content-type': 'application/json', ...headers });
          response.end(script.body);
        }
        return;
      }
      case 'redirect':
        response.writeHead(302, { location: canaryUrl });
        response.end();
        return;
      case 'huge':
        if (streaming) {
          sseHead(response);
          // One SSE line that never ends.
          response.write('data: {"x":"');
          await writeWithBackpressure(response, hugeBytes, 'x'.repeat(64 * 1024));
        } else {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.write('{"padding":"');
          await writeWithBackpressure(response, hugeBytes, 'x'.repeat(64 * 1024));
          if (isOpen(response)) response.end('"}');
        }
        return;
      case 'echo-auth':
        writeJson(response, 400, {
          error: {
            message: `rejected credentials: ${String(request.headers.authorization)}`,
            type: 'BadRequestError',
            param: null,
            code: 400,
          },
        });
        return;
      case 'split': {
        // fault-matrix row 15: the same events, cut into pieces at seeded offsets, one write() each.
        response.socket?.setNoDelay(true);
        sseHead(response);
        for (const piece of splitFrames(splitStreamText(model), script.seed)) {
          if (!isOpen(response)) return;
          response.write(piece);
          await new Promise((resolve) => setImmediate(resolve));
        }
        if (isOpen(response)) response.end();
        return;
      }
      case 'fail-then-ok': {
        const key = String(request.headers['x-request-id'] ?? 'no-request-id');
        const attempt = (attempts.get(key) ?? 0) + 1;
        attempts.set(key, attempt);
        if (attempt === 1) {
          response.socket?.resetAndDestroy();
          return;
        }
        await run(
          { ...request, headers: { ...request.headers, 'x-test-script': 'ok:3:0' } },
          response,
        );
        request.script = text;
        return;
      }
    }
  };

  const upstream = await startRecordingUpstream({
    handlers: Object.fromEntries(Object.keys(defaultUpstreamHandlers).map((key) => [key, run])),
    fallback: run,
  });
  let sequence = 0;
  const scriptForRequest = (requestId: string, script: string): void => {
    if (!parseScript(script)) throw new Error(`not a script: ${script}`);
    byRequestId.set(requestId, script);
  };
  return {
    ...upstream,
    setDefaultScript(script) {
      if (!parseScript(script)) throw new Error(`not a script: ${script}`);
      defaultScript = script;
    },
    scriptForRequest,
    scripted(script) {
      sequence += 1;
      const requestId = `scripted-${sequence}`;
      scriptForRequest(requestId, script);
      return { requestId, headers: { 'x-request-id': requestId } };
    },
  };
}
