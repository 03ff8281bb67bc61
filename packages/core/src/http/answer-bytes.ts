import { joinPieces, wholeBytes } from './joined-body.js';

/**
 * An upstream answer as the pieces it arrived in. Readers locate what they splice on by its place in
 * the whole, and the answer sent on is subarrays of these pieces: the answer is never joined into a
 * buffer of its own on the way through: joining a large embeddings answer per request doubled the
 * external memory the gateway allocated, which is what drives V8's collections here.
 */
export class AnswerBytes {
  readonly byteLength: number;
  // Where each piece starts in the whole, and one past the last.
  private readonly starts: number[];

  constructor(readonly pieces: readonly Uint8Array[]) {
    const starts = [0];
    let at = 0;
    for (const piece of pieces) {
      at += piece.byteLength;
      starts.push(at);
    }
    this.starts = starts;
    this.byteLength = at;
  }

  /** The whole answer in one array: the piece itself when there is one, else a joined copy. */
  whole(): Uint8Array {
    return wholeBytes(this.pieces, this.byteLength);
  }

  /** Appends to `into` the subarrays of the pieces that hold the bytes from `start` to `end`. */
  appendRange(start: number, end: number, into: Uint8Array[]): void {
    let index = this.pieceAt(start);
    let at = start;
    while (at < end) {
      const pieceStart = this.starts[index] as number;
      const piece = this.pieces[index] as Uint8Array;
      const to = Math.min(end, pieceStart + piece.byteLength);
      if (to > at) into.push(piece.subarray(at - pieceStart, to - pieceStart));
      at = to;
      index += 1;
    }
  }

  /** The bytes from `start` to `end` in one array: a subarray where one piece holds them all, else a copy. */
  range(start: number, end: number): Uint8Array {
    const index = this.pieceAt(start);
    const pieceStart = this.starts[index] as number;
    if (end <= (this.starts[index + 1] as number))
      return (this.pieces[index] as Uint8Array).subarray(start - pieceStart, end - pieceStart);
    const parts: Uint8Array[] = [];
    this.appendRange(start, end, parts);
    return joinPieces(parts, end - start);
  }

  /** The index of the piece holding byte `at` (the last piece for the end of the answer). */
  private pieceAt(at: number): number {
    const starts = this.starts;
    let low = 0;
    let high = this.pieces.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] as number) <= at) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}
