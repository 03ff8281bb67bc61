import { upstreamFailure } from './upstream-failure.js';

/**
 * Reads a whole body into one buffer, refusing it (UpstreamError too_large) as soon as it passes
 * `maxBytes`, so an endless or huge upstream answer never grows memory past the cap.
 */
export async function readLimitedBody(chunks: AsyncIterable<Uint8Array>, maxBytes: number): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.length;
    if (total > maxBytes) throw upstreamFailure('too_large', 'body');
    pieces.push(chunk);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const piece of pieces) {
    body.set(piece, offset);
    offset += piece.length;
  }
  return body;
}
