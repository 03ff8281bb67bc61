import { WebSocket } from 'undici';

const mib = 1024 * 1024;

/**
 * The live memory of a process started with `--inspect`, in MB: the JavaScript heap in use plus the
 * buffers it holds, read after full garbage collections through the inspector protocol. Unlike RSS it
 * leaves out garbage not yet collected and heap the collector sized up for a burst of allocation, so
 * a bound on it fails on memory the process holds (buffered data), not on when V8 chose to collect.
 */
export async function liveMemoryMb(inspectorUrl: string): Promise<number> {
  const socket = new WebSocket(inspectorUrl);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener(
      'error',
      () => reject(new Error(`cannot reach the inspector at ${inspectorUrl}`)),
      { once: true },
    );
  });
  let nextId = 0;
  interface Reply {
    id?: number;
    result?: { result?: { value?: unknown } };
    error?: { message: string };
  }
  const pending = new Map<number, (message: Reply) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as Reply;
    if (message.id !== undefined) pending.get(message.id)?.(message);
  });
  const call = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) => {
      nextId += 1;
      pending.set(nextId, (message) =>
        message.error
          ? reject(new Error(`${method}: ${message.error.message}`))
          : resolve(message.result?.result?.value),
      );
      socket.send(JSON.stringify({ id: nextId, method, params }));
    });
  try {
    // Twice: buffers freed by the first collection are released to the second.
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
    const bytes = await call('Runtime.evaluate', {
      expression:
        '(() => { const usage = process.memoryUsage(); return usage.heapUsed + usage.arrayBuffers; })()',
      returnByValue: true,
    });
    if (typeof bytes !== 'number') throw new Error('the inspector returned no memory figure');
    return bytes / mib;
  } finally {
    socket.close();
  }
}
