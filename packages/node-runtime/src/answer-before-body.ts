import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyText, earlyAnswerLinger, type JsonResult } from '@infergate/core';

/** A request whose body has not all arrived yet: one is declared (a length, or chunked) and it is not complete. */
export function bodyInFlight(request: IncomingMessage): boolean {
  if (request.complete) return false;
  const length = request.headers['content-length'];
  return (
    (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined
  );
}

/**
 * An error answered before the request body arrived in full (401, 413, 415, 503, 408), with a lingering
 * close as nginx makes it (core's earlyAnswerLinger): the answer goes out whole with
 * `Connection: close` and a FIN, the rest of the body is read and dropped until the client stops or the
 * bound is reached, and only then is the connection closed. The response is never ended: Node would
 * close the connection at once.
 */
export function answerBeforeBody(
  request: IncomingMessage,
  response: ServerResponse,
  result: JsonResult,
): void {
  const body = bodyText(result.body);
  response.writeHead(result.status, {
    ...result.headers,
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  });
  const { socket } = response;
  // Still behind an earlier answer on the connection (pipelining): Node sends it, then closes.
  if (socket === null) return void response.end(body);
  response.write(body);
  socket.end();
  let dropped = 0;
  const close = (): void => {
    clearTimeout(timer);
    request.removeListener('data', drop);
    request.removeListener('end', close);
    socket.destroy();
  };
  const drop = (chunk: Buffer): void => {
    dropped += chunk.byteLength;
    if (dropped > earlyAnswerLinger.bytes) close();
  };
  const timer = setTimeout(close, earlyAnswerLinger.ms);
  timer.unref();
  request.on('data', drop);
  request.once('end', close);
  socket.once('close', () => clearTimeout(timer));
  request.resume();
}
