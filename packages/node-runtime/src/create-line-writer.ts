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

// Lines logged while nothing is being written are gathered this long (or up to batchChars) and go out in
// one write: a write per line was a thread-pool round trip per request, ~10 us of the ~130 us CPU a chat
// request took at half of peak on one core (LOG_LEVEL warn against info, bench harness).
const batchMs = 20;
const batchChars = 16 * 1024;
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
 * Writes lines to `fd` asynchronously, in batches: a line logged while nothing is being written waits
 * up to 20 ms for others (or until 16 Ki code units have gathered), and lines logged during a write
 * wait for it to end. A batch goes out joined in one write, so each byte is copied once before the
 * system call. sonic-boom (pino's own destination) appends each line to a pending string and measures
 * it, which flattens that string again per line: ~3 KB copied per request of the bench's chat, a
 * tenth of what a request allocates. Partial writes and EAGAIN on a non-blocking pipe are written
 * on, in order. The lines still queued when the process exits are written synchronously then; a write
 * under way at that moment is the thread pool's and may not finish (as with sonic-boom), which is why
 * shutdown drains before it exits. After any other write error (EPIPE: the reader is gone) lines are dropped.
 */
export function createLineWriter(fd: number): LineWriter {
  let queued: string[] = [];
  let queuedChars = 0;
  let gathering: ReturnType<typeof setTimeout> | undefined;
  let writing = false;
  let broken = false;
  const waiting: ((error?: Error) => void)[] = [];
  let failure: Error | undefined;
  // A chunk the pipe refused (EAGAIN), waiting for its retry: surely unwritten, so the exit writes it first.
  let refused: { chunk: string | Buffer; retry: ReturnType<typeof setTimeout> } | undefined;

  const settled = (): void => {
    for (const done of waiting.splice(0)) done(failure);
  };

  const next = (): void => {
    if (broken || queued.length === 0) {
      writing = false;
      queued = [];
      queuedChars = 0;
      settled();
      return;
    }
    const text = queued.length === 1 ? (queued[0] as string) : queued.join('');
    queued = [];
    queuedChars = 0;
    writing = true;
    writeOut(text);
  };

  const writeOut = (chunk: string | Buffer): void => {
    const onWritten = (error: NodeJS.ErrnoException | null, written: number): void => {
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
      if (typeof chunk === 'string') {
        // Every code unit takes at least a byte: fewer bytes than code units is surely a short write.
        if (written >= chunk.length && written === Buffer.byteLength(chunk)) next();
        else writeOut(Buffer.from(chunk).subarray(written));
      } else if (written < chunk.byteLength) writeOut(chunk.subarray(written));
      else next();
    };
    if (typeof chunk === 'string') write(fd, chunk, null, 'utf8', onWritten);
    else write(fd, chunk, 0, chunk.byteLength, null, onWritten);
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
      queued.push(line);
      queuedChars += line.length;
      if (writing) return true;
      if (queuedChars >= batchChars) {
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
      const pieces: (string | Buffer)[] = [];
      if (refused !== undefined) {
        clearTimeout(refused.retry);
        pieces.push(refused.chunk);
        refused = undefined;
        // The retry's write is now this one's: the async path must not go on with the queue.
        writing = false;
      } else if (queued.length === 0) return;
      for (const line of queued) pieces.push(line);
      queued = [];
      queuedChars = 0;
      let bytes = Buffer.concat(pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece)));
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
