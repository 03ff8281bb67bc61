import { write, writeSync } from 'node:fs';

/** A destination for pino (or anything that writes whole lines): lines in, written to a file descriptor in order. */
export interface LineWriter {
  /** Queues `line` (newline included); true, as a stream's write says "go on". */
  write(line: string): boolean;
  /** Calls `done` once every line queued so far is written (or dropped after a write error). */
  flush(done?: (error?: Error) => void): void;
  /** Writes the queued lines synchronously: for the process's exit, when no callback would run. */
  flushSync(): void;
}

// Lines logged while nothing is being written are gathered this long (or up to batchBytes) and go out in
// one write: a write per line was a thread-pool round trip per request, a visible share of a chat
// request's CPU.
const batchMs = 20;
const batchBytes = 16 * 1024;
// Lines are encoded as they are logged into buffers of this size, reused: a line kept as a string until
// its batch went out was still alive at the next scavenge, which copied it. A longer line gets a buffer
// of its own.
const bufferBytes = 64 * 1024;
// Busy pipe or terminal (a non-blocking descriptor whose reader is behind): tried again after this.
const busyRetryMs = 10;
// At exit a reader that takes nothing for this long would hold the process open: the rest is dropped.
const exitWriteLimitMs = 2_000;
const pause = new Int32Array(new SharedArrayBuffer(4));
// One exit listener for every writer, so that many loggers in one process (tests) add no listeners.
const open = new Set<LineWriter>();
const flushAllAtExit = (): void => {
  for (const writer of open) writer.flushSync();
};

/**
 * Writes lines to `fd` asynchronously, in batches (batchMs, batchBytes; lines logged during a write wait
 * for it). Each line is encoded once, straight into the buffer the next write sends, where sonic-boom
 * (pino's own destination) flattens its pending string again per line. Partial writes and EAGAIN are
 * written on, in order; lines still queued at exit are written synchronously (a write under way then
 * may not finish, which is why shutdown drains first). After any other write error lines are dropped.
 */
export function createLineWriter(fd: number): LineWriter {
  // Bytes waiting for a write, oldest first: filled buffers, then the one being filled.
  const full: Buffer[] = [];
  let filling: Buffer | undefined;
  let filled = 0;
  // The buffer of the last write, kept for reuse once that write ends: steady logging uses two buffers.
  let spare: Buffer | undefined;
  let gathering: ReturnType<typeof setTimeout> | undefined;
  let writing = false;
  let broken = false;
  const waiting: ((error?: Error) => void)[] = [];
  let failure: Error | undefined;
  // A chunk the pipe refused (EAGAIN), waiting for its retry: surely unwritten, so the exit writes it first.
  let refused: { chunk: Buffer; retry: ReturnType<typeof setTimeout> } | undefined;

  const settled = (): void => {
    for (const done of waiting.splice(0)) done(failure);
  };

  const freshBuffer = (): Buffer => {
    const buffer = spare ?? Buffer.allocUnsafeSlow(bufferBytes);
    spare = undefined;
    return buffer;
  };

  const append = (line: string): void => {
    const room = filling === undefined ? 0 : filling.byteLength - filled;
    // A UTF-16 code unit takes at most 3 UTF-8 bytes: most lines need no measuring.
    const bytes = line.length * 3 <= room ? line.length * 3 : Buffer.byteLength(line);
    if (filling === undefined || bytes > room) {
      if (filling !== undefined && filled > 0) full.push(filling.subarray(0, filled));
      if (bytes > bufferBytes) {
        full.push(Buffer.from(line));
        filling = undefined;
        filled = 0;
        return;
      }
      filling = freshBuffer();
      filled = 0;
    }
    filled += filling.write(line, filled);
  };

  /** The oldest waiting bytes, taken off the queue; undefined when nothing waits. */
  const takeChunk = (): Buffer | undefined => {
    const chunk = full.shift();
    if (chunk !== undefined) return chunk;
    if (filling === undefined || filled === 0) return undefined;
    const taken = filling.subarray(0, filled);
    filling = undefined;
    filled = 0;
    return taken;
  };

  const next = (): void => {
    const chunk = broken ? undefined : takeChunk();
    if (chunk === undefined) {
      writing = false;
      if (broken) {
        full.length = 0;
        filling = undefined;
        filled = 0;
      }
      settled();
      return;
    }
    writing = true;
    writeOut(chunk);
  };

  const writeOut = (chunk: Buffer): void => {
    write(fd, chunk, 0, chunk.byteLength, null, (error, written) => {
      if (error !== null) {
        if (error.code === 'EAGAIN' || error.code === 'EBUSY') {
          const retry = setTimeout(() => {
            refused = undefined;
            writeOut(chunk);
          }, busyRetryMs);
          refused = { chunk, retry };
          return;
        }
        broken = true;
        failure = error;
        next();
        return;
      }
      if (written < chunk.byteLength) {
        writeOut(chunk.subarray(written));
        return;
      }
      // Each buffer goes out as one chunk after it stopped being filled: once written, nothing else holds it.
      if (chunk.buffer.byteLength === bufferBytes && spare === undefined)
        spare = Buffer.from(chunk.buffer, 0, bufferBytes);
      next();
    });
  };

  const stopGathering = (): void => {
    if (gathering === undefined) return;
    clearTimeout(gathering);
    gathering = undefined;
  };
  const writeGathered = (): void => {
    gathering = undefined;
    if (!writing) next();
  };

  const writer: LineWriter = {
    write(line) {
      if (broken) return true;
      append(line);
      if (writing) return true;
      if (full.length > 0 || filled >= batchBytes) {
        stopGathering();
        next();
      } else if (gathering === undefined) {
        gathering = setTimeout(writeGathered, batchMs);
        // The exit writes what is left (flushSync): the timer need not hold the process open.
        gathering.unref();
      }
      return true;
    },
    flush(done) {
      if (gathering !== undefined) {
        stopGathering();
        next();
      }
      if (done === undefined) return;
      if (!writing) process.nextTick(done, failure);
      else waiting.push(done);
    },
    flushSync() {
      stopGathering();
      if (broken) return;
      const pieces: Buffer[] = [];
      if (refused !== undefined) {
        clearTimeout(refused.retry);
        pieces.push(refused.chunk);
        refused = undefined;
        // The retry's write is now this one's: the async path must not go on with the queue.
        writing = false;
      }
      for (let chunk = takeChunk(); chunk !== undefined; chunk = takeChunk()) pieces.push(chunk);
      let bytes = pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces);
      const giveUpAt = Date.now() + exitWriteLimitMs;
      while (bytes.byteLength > 0) {
        try {
          bytes = bytes.subarray(writeSync(fd, bytes));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || Date.now() > giveUpAt) return;
          Atomics.wait(pause, 0, 0, busyRetryMs);
        }
      }
    },
  };
  if (open.size === 0) process.on('exit', flushAllAtExit);
  open.add(writer);
  return writer;
}
