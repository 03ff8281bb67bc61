import type { ServerResponse } from 'node:http';

function drainOrClose(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

/**
 * Writes a pull-based Web stream to a Node response, one chunk at a time: the next chunk is pulled only
 * once the socket has taken the previous one, so a slow client slows the upstream read instead of
 * growing a buffer. When the client goes away the stream is cancelled, which aborts the upstream call.
 * Resolves once the response has ended or the client is gone; never rejects.
 */
export async function pipeStreamToResponse(stream: ReadableStream<Uint8Array>, response: ServerResponse): Promise<void> {
  const reader = stream.getReader();
  const onClose = (): void => {
    if (!response.writableFinished) reader.cancel(new Error('The client closed the connection.')).catch(() => undefined);
  };
  response.once('close', onClose);
  // The events of one upstream read come through the stream as a chain of microtasks; corked until the
  // tick after them, they leave in one writev instead of one write syscall per event.
  const uncork = (): void => {
    // end() uncorks fully; after it the socket may already carry the connection's next response.
    if (!response.writableEnded && !response.destroyed) response.uncork();
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || response.destroyed) break;
      if (response.writableCorked === 0) {
        response.cork();
        process.nextTick(uncork);
      }
      if (!response.write(value)) await drainOrClose(response);
    }
    if (!response.destroyed) response.end();
  } catch {
    // Core's streams end with their own in-protocol error event; a stream that still fails is cut, so
    // that the client sees an incomplete response rather than a clean end.
    response.destroy();
  } finally {
    response.off('close', onClose);
    reader.releaseLock();
  }
}
