import { Worker } from 'node:worker_threads';
import type { LocalBackendOptions } from '../local-backend-options.js';
import { workerEntry } from './worker-entry.js';
import type { FromWorker, ToWorker } from './worker-messages.js';

interface Exchange {
  /** Until the head arrives. */
  answer?: { resolve(response: Response): void; reject(error: unknown): void };
  /** While a pulled chunk is on its way. */
  pulling?: { controller: ReadableStreamDefaultController<Uint8Array>; done(): void };
  controller?: ReadableStreamDefaultController<Uint8Array>;
  detach(): void;
}

/**
 * One worker thread running the local backend's Web handler, and the requests it is serving. A request's
 * Response is built here from the worker's head, its body pulled from the worker one chunk per read.
 */
export class LocalBackendThread {
  private readonly worker: Worker;
  private readonly exchanges = new Map<number, Exchange>();
  private nextId = 0;
  private stopped: Error | undefined;
  /** Set once its heap has grown past `heapLimitBytes`: it takes no new request and stops once idle. */
  retiring = false;

  constructor(
    options: LocalBackendOptions,
    private readonly heapLimitBytes: number,
    onStop: (thread: LocalBackendThread) => void,
  ) {
    const entry = workerEntry();
    this.worker = new Worker(entry.url, { workerData: options, execArgv: entry.execArgv });
    // Idle, it does not keep the process alive (see `track`).
    this.worker.unref();
    this.worker.on('message', (message: FromWorker) => this.receive(message));
    const stop = (error: Error): void => {
      if (this.stopped !== undefined) return;
      this.stopped = error;
      for (const [id, exchange] of this.exchanges) this.fail(id, exchange, error);
      onStop(this);
    };
    this.worker.on('error', stop);
    this.worker.on('exit', (code) =>
      stop(new Error(`the local backend worker exited (code ${code})`)),
    );
  }

  /** Requests this thread is serving (answers not yet ended). */
  get load(): number {
    return this.exchanges.size;
  }

  async handle(request: Request): Promise<Response> {
    if (this.stopped !== undefined) throw this.stopped;
    const body = request.body === null ? null : await request.arrayBuffer();
    const id = this.nextId++;
    return new Promise<Response>((resolve, reject) => {
      const onAbort = (): void => {
        const exchange = this.exchanges.get(id);
        if (exchange !== undefined) this.fail(id, exchange, request.signal.reason);
        this.send({ type: 'cancel', id });
      };
      const exchange: Exchange = {
        answer: { resolve, reject },
        detach: () => request.signal.removeEventListener('abort', onAbort),
      };
      if (request.signal.aborted) return reject(request.signal.reason);
      request.signal.addEventListener('abort', onAbort, { once: true });
      this.track(id, exchange);
      const headers = [...request.headers];
      this.send(
        { type: 'request', id, method: request.method, url: request.url, headers, body },
        body === null ? [] : [body],
      );
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }

  private send(message: ToWorker, transfer: ArrayBuffer[] = []): void {
    if (this.stopped === undefined) this.worker.postMessage(message, transfer);
  }

  /** A thread with requests keeps the process alive until they end, as a socket would. */
  private track(id: number, exchange: Exchange): void {
    if (this.exchanges.size === 0) this.worker.ref();
    this.exchanges.set(id, exchange);
  }

  private untrack(id: number, exchange: Exchange): void {
    exchange.detach();
    if (this.exchanges.delete(id) && this.exchanges.size === 0) {
      this.worker.unref();
      if (this.retiring) void this.close();
    }
  }

  private fail(id: number, exchange: Exchange, error: unknown): void {
    this.untrack(id, exchange);
    exchange.answer?.reject(error);
    try {
      exchange.controller?.error(error);
    } catch {
      // Already closed or errored.
    }
    exchange.pulling?.done();
  }

  private receive(message: FromWorker): void {
    if (message.type === 'heap') {
      // V8 keeps the heap a large request grew to; a fresh thread gives that memory back.
      if (message.bytes > this.heapLimitBytes) this.retiring = true;
      if (this.retiring && this.exchanges.size === 0) void this.close();
      return;
    }
    const exchange = this.exchanges.get(message.id);
    if (exchange === undefined) return;
    switch (message.type) {
      case 'head': {
        const answer = exchange.answer;
        exchange.answer = undefined;
        if (!message.hasBody) this.untrack(message.id, exchange);
        answer?.resolve(
          new Response(message.hasBody ? this.body(message.id, exchange) : null, {
            status: message.status,
            headers: message.headers,
          }),
        );
        return;
      }
      case 'chunk': {
        const pulling = exchange.pulling;
        exchange.pulling = undefined;
        pulling?.controller.enqueue(message.bytes);
        pulling?.done();
        return;
      }
      case 'end': {
        const pulling = exchange.pulling;
        exchange.pulling = undefined;
        this.untrack(message.id, exchange);
        exchange.controller?.close();
        pulling?.done();
        return;
      }
      case 'fail':
        this.fail(message.id, exchange, new Error(message.message));
    }
  }

  private body(id: number, exchange: Exchange): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          exchange.controller = controller;
        },
        pull: (controller) =>
          new Promise<void>((done) => {
            exchange.pulling = { controller, done };
            this.send({ type: 'pull', id });
          }),
        cancel: () => {
          this.untrack(id, exchange);
          this.send({ type: 'cancel', id });
        },
      },
      // Nothing is read ahead: each read asks the worker for one chunk.
      { highWaterMark: 0 },
    );
  }
}
