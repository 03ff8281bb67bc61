import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { createLocalBackend } from '../create-local-backend.js';
import type { LocalBackendOptions } from '../local-backend-options.js';
import type { FromWorker, ToWorker } from './worker-messages.js';

/*
 * A worker thread of the threaded local backend: the same Web handler as in process, so its answers are
 * the same bytes; only the thread that tokenizes, ranks and encodes differs.
 */

interface Running {
  abort: AbortController;
  reader?: ReadableStreamDefaultReader<Uint8Array>;
}

const port = parentPort;
if (port === null) throw new Error('local-backend-worker runs as a worker thread');
const handler = createLocalBackend(workerData as LocalBackendOptions);
const running = new Map<number, Running>();

function post(message: FromWorker): void {
  port?.postMessage(message);
}

/** The last message of a request, then this thread's heap size, which decides whether it is replaced. */
function finish(id: number, message: FromWorker): void {
  running.delete(id);
  post(message);
  post({ type: 'heap', bytes: getHeapStatistics().total_heap_size });
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function serve(message: Extract<ToWorker, { type: 'request' }>): Promise<void> {
  const entry: Running = { abort: new AbortController() };
  running.set(message.id, entry);
  try {
    const request = new Request(message.url, {
      method: message.method,
      headers: message.headers,
      body: message.body,
      signal: entry.abort.signal,
    });
    const response = await handler(request);
    if (!running.has(message.id)) {
      await response.body?.cancel();
      return;
    }
    const head: FromWorker = {
      type: 'head',
      id: message.id,
      status: response.status,
      headers: [...response.headers],
      hasBody: response.body !== null,
    };
    if (response.body === null) {
      finish(message.id, head);
      return;
    }
    entry.reader = response.body.getReader();
    post(head);
  } catch (error) {
    finish(message.id, { type: 'fail', id: message.id, message: reason(error) });
  }
}

async function pull(id: number): Promise<void> {
  const reader = running.get(id)?.reader;
  if (reader === undefined) return;
  try {
    const { done, value } = await reader.read();
    if (done) {
      finish(id, { type: 'end', id });
      return;
    }
    // Copied, not transferred: a handler may send the same bytes again (the stream's final `[DONE]`).
    post({ type: 'chunk', id, bytes: value });
  } catch (error) {
    finish(id, { type: 'fail', id, message: reason(error) });
  }
}

function cancel(id: number): void {
  const entry = running.get(id);
  if (entry === undefined) return;
  running.delete(id);
  entry.abort.abort();
  entry.reader?.cancel().catch(() => undefined);
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'request') void serve(message);
  else if (message.type === 'pull') void pull(message.id);
  else cancel(message.id);
});
