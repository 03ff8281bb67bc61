// Scenario 8: our SSE parser (core's createSseParser, bytes in) against eventsource-parser 3
// (text in, behind a streaming TextDecoder, which is how the gateway would have to feed it), in one
// process and one run, on the shapes of fault-matrix row 15 over the bench's 32-chunk chat stream.
//   node --expose-gc --max-semi-space-size=64 bench/sse-parsers.mjs [--quick] [--json=<file>]
// Needs packages/core/dist (pnpm build). Prints ns per event and bytes allocated per event for both.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { URL } from 'node:url';
import { TextDecoder, TextEncoder } from 'node:util';
import process from 'node:process';
import { chatModel, chatStreamEvents } from './payloads.mjs';
import { median } from './stats.mjs';

const { createSseParser } = await import(new URL('../../core/dist/index.js', import.meta.url).href);
const require = createRequire(import.meta.url);
/** @type {typeof import('eventsource-parser')} */
const { createParser } = await import(require.resolve('eventsource-parser'));
const eventsourceParserVersion = require('eventsource-parser/package.json').version;

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const jsonFile = args.find((arg) => arg.startsWith('--json='))?.slice('--json='.length);
const log = (line) => process.stdout.write(`${line}\n`);
const encoder = new TextEncoder();

// A fixed-seed generator, so that every run (and both parsers) see the same cuts.
function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function cutAnywhere(bytes, random, largest) {
  const chunks = [];
  for (let offset = 0; offset < bytes.length;) {
    const size = 1 + Math.floor(random() * largest);
    chunks.push(bytes.slice(offset, offset + size));
    offset += size;
  }
  return chunks;
}

const concat = (strings) => encoder.encode(strings.join(''));
const frames = chatStreamEvents(chatModel, 32);
const payloads = frames.map((frame) => frame.slice('data: '.length, -2));

// Each shape: the chunks as read from the socket, and the data of the events a client must see.
function multiLine(payload) {
  const lines = [];
  for (let offset = 0; offset < payload.length; offset += 40)
    lines.push(payload.slice(offset, offset + 40));
  return lines;
}
const shapes = [
  {
    name: 'one event per read (LF)',
    chunks: frames.map((frame) => encoder.encode(frame)),
    expected: payloads,
  },
  {
    name: 'cut at random offsets (1-97 B)',
    chunks: cutAnywhere(concat(frames), seededRandom(15), 97),
    expected: payloads,
  },
  {
    name: 'CRLF, one event per read',
    chunks: frames.map((frame) => encoder.encode(frame.replaceAll('\n', '\r\n'))),
    expected: payloads,
  },
  {
    name: 'CR, one event per read',
    chunks: frames.map((frame) => encoder.encode(frame.replaceAll('\n', '\r'))),
    expected: payloads,
  },
  {
    name: 'multi-line data + comments',
    chunks: payloads.map((payload, index) =>
      encoder.encode(
        `${index % 4 === 0 ? ': keepalive\n\n' : ''}${multiLine(payload)
          .map((line) => `data: ${line}\n`)
          .join('')}\n`,
      ),
    ),
    expected: payloads.map((payload) => multiLine(payload).join('\n')),
  },
  {
    name: '1-byte reads',
    chunks: [...concat(frames)].map((byte) => Uint8Array.of(byte)),
    expected: payloads,
  },
];

// Each parser reads one whole stream the way the gateway does per request: a fresh parser, every
// chunk pushed, the events of each chunk handed on. Returns the events seen (for the check) or a count.
const parsers = [
  {
    name: 'ours (core createSseParser)',
    read(chunks, keep) {
      const parser = createSseParser({ maxEventLength: 1_048_576 });
      const seen = keep ? [] : undefined;
      let count = 0;
      for (const chunk of chunks) {
        for (const event of parser.push(chunk)) {
          count += 1;
          seen?.push(event.data);
        }
      }
      return seen ?? count;
    },
  },
  {
    name: `eventsource-parser ${eventsourceParserVersion}`,
    read(chunks, keep) {
      const decoder = new TextDecoder();
      let batch = [];
      const parser = createParser({
        onEvent: (event) => batch.push(event),
        maxBufferSize: 1_048_576,
      });
      const seen = keep ? [] : undefined;
      let count = 0;
      for (const chunk of chunks) {
        parser.feed(decoder.decode(chunk, { stream: true }));
        for (const event of batch) {
          count += 1;
          seen?.push(event.data);
        }
        batch = [];
      }
      return seen ?? count;
    },
  },
];

const gc = globalThis.gc;
const rounds = quick ? 3 : 7;
const streamsPerRound = quick ? 300 : 2_000;
const allocationStreams = 20;

function timeRound(parser, chunks) {
  const started = performance.now();
  let events = 0;
  for (let stream = 0; stream < streamsPerRound; stream += 1) events += parser.read(chunks, false);
  return ((performance.now() - started) * 1e6) / events;
}

// Heap growth over a few streams with no collection in between (a 64 MB young generation holds them);
// a collection inside the window shows as a negative delta and is reported as n/a.
function bytesPerEvent(parser, chunks) {
  if (gc === undefined) return Number.NaN;
  gc();
  const before = process.memoryUsage().heapUsed;
  let events = 0;
  for (let stream = 0; stream < allocationStreams; stream += 1)
    events += parser.read(chunks, false);
  const grown = process.memoryUsage().heapUsed - before;
  return grown > 0 ? grown / events : Number.NaN;
}

// A parser that misses or changes events is still timed (on what it did read), and named below the table.
const misread = [];
const results = {
  node: process.version,
  quick,
  eventsourceParser: eventsourceParserVersion,
  gcExposed: gc !== undefined,
  shapes: [],
};
log(
  `SSE parsers, ${rounds} rounds of ${streamsPerRound} streams per shape (median of rounds), ${frames.length} events per stream; node ${process.version}`,
);
if (gc === undefined) log('allocations: n/a (run with --expose-gc --max-semi-space-size=64)');
log(
  `| shape | ${parsers.map((parser) => `${parser.name} ns/event | B/event`).join(' | ')} | ours / theirs (time) |`,
);
log(`|---|${parsers.map(() => '---:|---:').join('|')}|---:|`);
for (const shape of shapes) {
  for (const parser of parsers) {
    const seen = parser.read(shape.chunks, true);
    if (JSON.stringify(seen) !== JSON.stringify(shape.expected))
      misread.push(
        `${parser.name} on "${shape.name}": ${seen.length} of ${shape.expected.length} events, ${seen.filter((data, index) => data !== shape.expected[index]).length} different`,
      );
    for (let warm = 0; warm < 200; warm += 1) parser.read(shape.chunks, false);
  }
  const samples = parsers.map(() => []);
  // Rounds alternate between the parsers, so that drift on the machine hits both alike.
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, parser] of parsers.entries())
      samples[index].push(timeRound(parser, shape.chunks));
  }
  const figures = parsers.map((parser, index) => ({
    parser: parser.name,
    nsPerEvent: median(samples[index]),
    bytesPerEvent: bytesPerEvent(parser, shape.chunks),
    rounds: samples[index],
  }));
  results.shapes.push({ shape: shape.name, chunks: shape.chunks.length, figures });
  const cells = figures.map(
    (figure) =>
      `${figure.nsPerEvent.toFixed(0)} | ${Number.isNaN(figure.bytesPerEvent) ? 'n/a' : figure.bytesPerEvent.toFixed(0)}`,
  );
  log(
    `| ${shape.name} (${shape.chunks.length} reads) | ${cells.join(' | ')} | ${(figures[0].nsPerEvent / figures[1].nsPerEvent).toFixed(2)} |`,
  );
}
results.misread = misread;
for (const line of misread) log(`MISREAD: ${line}`);
if (jsonFile !== undefined) writeFileSync(jsonFile, `${JSON.stringify(results, null, 2)}\n`);
