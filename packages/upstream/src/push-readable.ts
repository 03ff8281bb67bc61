import type { Readable } from 'node:stream';
import type { BodySink } from './transport.js';

/**
 * Hands a Node stream to a sink through its 'data' events: the pieces arrive as Node emits them,
 * without the async iterator's promise and result object per piece. The error listener stays after
 * the delivery stops, because undici destroys the body with an error when the port aborts, and an
 * 'error' with no listener would throw.
 */
export function pushReadable(readable: Readable, sink: BodySink): () => void {
  let open = true;
  const onData = (piece: Uint8Array): void => {
    if (open) sink.piece(piece);
  };
  const onEnd = (): void => {
    if (!open) return;
    open = false;
    sink.end();
  };
  const onError = (error: unknown): void => {
    if (!open) return;
    open = false;
    sink.fail(error);
  };
  // Destroyed with neither an end nor an error (as the async iterator reports it: a premature close).
  // Every body closes after its end, so the error is made only when still open.
  const onClose = (): void => {
    if (open)
      onError(
        Object.assign(new Error('The body closed before its end.'), {
          code: 'ERR_STREAM_PREMATURE_CLOSE',
        }),
      );
  };
  readable.on('error', onError);
  readable.once('end', onEnd);
  readable.once('close', onClose);
  readable.on('data', onData);
  return () => {
    if (!open) return;
    open = false;
    readable.off('data', onData);
    readable.destroy();
  };
}
