import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLineWriter, type LineWriter } from './create-line-writer.js';

/*
 * The request log's destination: what an operator reads on stdout must be every line, whole and in
 * order, whatever the characters, the line lengths or the reader's pace. Lines are encoded into
 * 64 KiB buffers as they come, so the lines below cross buffer boundaries with multi-byte characters,
 * include one longer than a buffer, and go through a pipe that is full when they are written.
 */

const directories: string[] = [];
const descriptors: number[] = [];

afterEach(() => {
  for (const fd of descriptors.splice(0)) closeSync(fd);
  for (const directory of directories.splice(0))
    rmSync(directory, { recursive: true, force: true });
});

function scratch(): string {
  const directory = mkdtempSync(join(tmpdir(), 'line-writer-'));
  directories.push(directory);
  return directory;
}

function openTracked(path: string, flags: number): number {
  const fd = openSync(path, flags);
  descriptors.push(fd);
  return fd;
}

/** Lines of every width UTF-8 has (1 to 4 bytes a character), numbered; with `oversized`, one of 200 KiB among them. */
function sampleLines(count: number, oversized = true): string[] {
  const lines: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const long = oversized && index === Math.floor(count / 2);
    const text = long ? 'x'.repeat(200 * 1024) : `ascii é 日本語 🙂 `.repeat(1 + (index % 40));
    lines.push(`${JSON.stringify({ index, text })}\n`);
  }
  return lines;
}

const flushed = (writer: LineWriter): Promise<Error | undefined> =>
  new Promise((resolve) => writer.flush(resolve));

describe('createLineWriter', () => {
  it('writes every line whole and in order, across buffers, multi-byte characters and an oversized line', async () => {
    const path = join(scratch(), 'log');
    const writer = createLineWriter(openTracked(path, constants.O_WRONLY | constants.O_CREAT));
    const lines = sampleLines(3_000);
    for (const [index, line] of lines.entries()) {
      writer.write(line);
      // Some lines arrive while a write is under way, some while the writer is gathering.
      if (index % 500 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(await flushed(writer)).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe(lines.join(''));
  });

  it('writes what is queued synchronously when asked to (the process is exiting)', () => {
    const path = join(scratch(), 'log');
    const writer = createLineWriter(openTracked(path, constants.O_WRONLY | constants.O_CREAT));
    // Under the 16 KiB that start a write at once: all of it waits in the gathering window.
    const lines = sampleLines(12, false);
    for (const line of lines) writer.write(line);
    writer.flushSync();
    expect(readFileSync(path, 'utf8')).toBe(lines.join(''));
  });

  it('goes on from where a full pipe stopped it, losing and repeating nothing', async () => {
    const fifo = join(scratch(), 'fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = openTracked(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = createLineWriter(openTracked(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    const lines = sampleLines(2_000);
    const expected = Buffer.from(lines.join(''));
    // ~2.6 MB against a pipe of 64 KiB that nobody reads yet: short writes, then EAGAIN.
    for (const line of lines) writer.write(line);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const received: Buffer[] = [];
    let receivedBytes = 0;
    const chunk = Buffer.alloc(64 * 1024);
    const giveUpAt = Date.now() + 20_000;
    while (receivedBytes < expected.byteLength && Date.now() < giveUpAt) {
      try {
        const bytes = readSync(reader, chunk);
        received.push(Buffer.from(chunk.subarray(0, bytes)));
        receivedBytes += bytes;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    }
    expect(await flushed(writer)).toBeUndefined();
    expect(Buffer.concat(received).equals(expected)).toBe(true);
  });
});
