import { availableParallelism } from 'node:os';
import type { LocalBackendOptions } from '../local-backend-options.js';
import { LocalBackendThread } from './local-backend-thread.js';

export interface ThreadedLocalBackendOptions extends LocalBackendOptions {
  /** Worker threads at most (default: the cores, between 1 and 4); started as requests need them. */
  threads?: number;
  /** A worker whose heap has grown past this many MB (a large prompt) is replaced once idle (default 256). */
  recycleHeapMb?: number;
}

export interface ThreadedLocalBackend {
  /** The local backend's Web handler, each request served in a worker thread. */
  handle(request: Request): Promise<Response>;
  /** Stops the worker threads; requests still running fail. */
  close(): Promise<void>;
}

/**
 * The local backend with its work off the calling thread: tokenizing, ranking, embedding and encoding
 * take seconds for large inputs, and a handler called in process would hold its caller's event loop
 * (every other request of the gateway) that long. A request goes to the least busy worker; another is
 * started while every worker is busy, up to `threads`. A worker that dies fails its requests and is
 * replaced on the next one; so is one whose heap a large request grew past `recycleHeapMb`, once idle.
 */
export function createThreadedLocalBackend(
  options: ThreadedLocalBackendOptions = {},
): ThreadedLocalBackend {
  const {
    threads: maxThreads = Math.min(4, Math.max(1, availableParallelism())),
    recycleHeapMb = 256,
    ...backendOptions
  } = options;
  const threads: LocalBackendThread[] = [];
  const forget = (thread: LocalBackendThread): void => {
    const index = threads.indexOf(thread);
    if (index >= 0) threads.splice(index, 1);
  };
  const pick = (): LocalBackendThread => {
    let least: LocalBackendThread | undefined;
    for (const thread of threads)
      if (!thread.retiring && (least === undefined || thread.load < least.load)) least = thread;
    if (least !== undefined && (least.load === 0 || threads.length >= maxThreads)) return least;
    const started = new LocalBackendThread(backendOptions, recycleHeapMb * 1024 * 1024, forget);
    threads.push(started);
    return started;
  };
  return {
    handle: (request) => pick().handle(request),
    close: async () => {
      await Promise.all(threads.splice(0).map((thread) => thread.close()));
    },
  };
}
