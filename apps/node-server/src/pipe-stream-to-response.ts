import type { ServerResponse } from 'node:http';
import type { StreamBody } from '@infergate/core';
import { waitForDrain } from '@infergate/node-runtime/wait-for-drain';

/**
 * Writes a stream answer to a Node response, one chunk at a time, read straight from core (no Web
 * stream in between): the next chunk is read only once the socket has taken the previous one, so a
 * slow client slows the upstream read instead of growing a buffer. When the client goes away the body
 * is cancelled, which aborts the upstream call. Resolves once the response has ended or the client is
 * gone; never rejects.
 */
export async function pipeStreamToResponse(
  body: StreamBody,
  response: ServerResponse,
): Promise<void> {
  const onClose = (): void => {
    if (!response.writableFinished) body.cancel().catch(() => undefined);
  };
  response.once('close', onClose);
  // A keep-alive comment waits behind nothing: a client that has not taken the last chunk gets none.
  body.onKeepalive((chunk) => {
    if (!response.destroyed && !response.writableEnded && !response.writableNeedDrain)
      response.write(chunk);
  });
  // Clients (openai-node among them) wait for the status line before they read any event.
  response.flushHeaders();
  try {
    for (;;) {
      const chunk = await body.read();
      if (chunk === undefined || response.destroyed) break;
      if (!response.write(chunk)) await waitForDrain(response);
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
