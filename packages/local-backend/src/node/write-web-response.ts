import type { ServerResponse } from 'node:http';
import { waitForDrain } from '@infergate/node-runtime/wait-for-drain';

/**
 * Writes a Web Response to a node response, honouring backpressure: the next chunk is read from the body only
 * once the socket has drained, so a slow client slows generation. A closed connection cancels the body.
 */
export async function writeWebResponse(
  response: Response,
  outgoing: ServerResponse,
): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  outgoing.writeHead(response.status, headers);
  if (response.body === null) {
    outgoing.end();
    return;
  }
  outgoing.flushHeaders();
  const reader = response.body.getReader();
  const onClose = (): void => {
    reader.cancel().catch(() => undefined);
  };
  outgoing.once('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || outgoing.destroyed) break;
      if (!outgoing.write(value)) await waitForDrain(outgoing);
    }
  } finally {
    outgoing.off('close', onClose);
    if (!outgoing.destroyed) outgoing.end();
  }
}
