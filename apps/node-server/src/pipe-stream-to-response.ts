import type { ServerResponse } from 'node:http';
import type { StreamBody } from '@infergate/core';

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
 * Writes a stream answer to a Node response, one chunk at a time, read straight from core (no Web
 * stream in between): the next chunk is read only once the socket has taken the previous one, so a
 * slow client slows the upstream read instead of growing a buffer. When the client goes away the body
 * is cancelled, which aborts the upstream call. Resolves once the response has ended or the client is
 * gone; never rejects.
 */
export async function pipeStreamToResponse(body: StreamBody, response: ServerResponse): Promise<void> {
  const onClose = (): void => {
    if (!response.writableFinished) body.cancel().catch(() => undefined);
  };
  response.once('close', onClose);
  // A keep-alive comment waits behind nothing: a client that has not taken the last chunk gets none.
  body.onKeepalive((chunk) => {
    if (!response.destroyed && !response.writableEnded && !response.writableNeedDrain) response.write(chunk);
  });
  // A chunk (the events of one upstream read), and the end of the stream when it follows at once (a
  // chat stream after [DONE]), are corked until the next tick: they leave in one writev. The status
  // line, which clients wait for before reading events, is corked with the first chunk when that is
  // ready in this tick (the handler has read the first upstream event), and leaves alone otherwise.
  const uncork = (): void => {
    // end() uncorks fully; after it the socket may already carry the connection's next response.
    if (!response.writableEnded && !response.destroyed) response.uncork();
  };
  response.cork();
  process.nextTick(uncork);
  response.flushHeaders();
  try {
    for (;;) {
      const chunk = await body.read();
      if (chunk === undefined || response.destroyed) break;
      if (response.writableCorked === 0) {
        response.cork();
        process.nextTick(uncork);
      }
      if (!response.write(chunk)) await drainOrClose(response);
    }
    if (!response.destroyed) response.end();
  } catch {
    // Core's streams end with their own in-protocol error event; a stream that still fails is cut, so
    // that the client sees an incomplete response rather than a clean end.
    response.destroy();
  } finally {
    response.off('close', onClose);
  }
}
