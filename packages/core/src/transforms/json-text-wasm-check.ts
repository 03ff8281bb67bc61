import { jsonTextWasmBase64 } from './json-text-wasm.js';

/*
 * json-text-scanner's two long loops compiled to WebAssembly from json-text-check.wat: the number-list
 * check (numberListEnd), with the same grammar and the same positions, a long list read as two halves
 * at once, and the run of base64 characters of base64String, reading 64 bytes a step: several times
 * faster than the JavaScript loops, the copy into the module's memory included. Where a runtime refuses
 * to compile WebAssembly from bytes (Cloudflare Workers) the scanner keeps its JavaScript loops.
 */

interface JsonTextExports {
  memory: WebAssembly.Memory;
  count: WebAssembly.Global;
  listEnd(at: number): number;
  base64End(at: number): number;
}

// WebAssembly memory never shrinks: an answer above this is checked in JavaScript, so that one huge
// answer does not hold its size for the life of the process.
const maxCopiedBytes = 8 * 1024 * 1024;
// The 0 byte after the text, and room for the 64 bytes a base64 step reads from it.
const slack = 65;

// undefined until first asked for; null where the runtime refused it.
let loaded: JsonTextExports | null | undefined;
let enabled = true;
// Who the memory holds the bytes of: a reader copies its answer once, for all its lists and strings.
let holder: WeakRef<object> | undefined;

/** The module's exports, compiled at the first call; null where the runtime refuses to compile it. */
function loadedExports(): JsonTextExports | null {
  if (loaded === undefined) loaded = load();
  return loaded;
}

function load(): JsonTextExports | null {
  try {
    const bytes = Uint8Array.from(atob(jsonTextWasmBase64), (character) => character.charCodeAt(0));
    return new WebAssembly.Instance(new WebAssembly.Module(bytes))
      .exports as unknown as JsonTextExports;
  } catch {
    return null;
  }
}

/** For tests: run the JavaScript loops even where WebAssembly is available. */
export function useWasmTextCheck(use: boolean): void {
  enabled = use;
}

/** Whether lists and base64 strings are checked by WebAssembly in this runtime now. */
export function wasmTextCheckInUse(): boolean {
  return enabled && loadedExports() !== null;
}

/** The module's memory with `pieces` copied one after another from its start; null where it cannot hold them. */
function copied(pieces: readonly Uint8Array[], byteLength: number): JsonTextExports | null {
  if (!enabled || byteLength > maxCopiedBytes) return null;
  const wasm = loadedExports();
  if (wasm === null) return null;
  const missing = byteLength + slack - wasm.memory.buffer.byteLength;
  try {
    if (missing > 0) wasm.memory.grow(Math.ceil(missing / 65_536));
  } catch {
    return null;
  }
  const memory = new Uint8Array(wasm.memory.buffer);
  let at = 0;
  for (const piece of pieces) {
    memory.set(piece, at);
    at += piece.byteLength;
  }
  // The end of the text, as JavaScript's undefined past the last byte: no digit, blank, `,`, `]` or base64 character.
  memory[byteLength] = 0;
  holder = undefined;
  return wasm;
}

/**
 * An answer's pieces copied into the module's memory, as one array to read it from; undefined where
 * the module is not used (the reader then joins the pieces). The array is overwritten by the next
 * copy: it is for reading within one synchronous pass, never for keeping.
 */
export function wasmTextOf(
  pieces: readonly Uint8Array[],
  byteLength: number,
): Uint8Array | undefined {
  const wasm = copied(pieces, byteLength);
  return wasm === null ? undefined : new Uint8Array(wasm.memory.buffer, 0, byteLength);
}

/** The module with `reader`'s bytes in its memory (copied at the reader's first call); null where JavaScript must do it. */
function withBytes(bytes: Uint8Array, reader: object): JsonTextExports | null {
  if (!enabled || bytes.length > maxCopiedBytes) return null;
  const wasm = loadedExports();
  if (wasm === null) return null;
  // Already there: the bytes are the module's memory, from wasmTextOf.
  if (bytes.buffer === wasm.memory.buffer && bytes.byteOffset === 0) return wasm;
  if (holder?.deref() === reader) return wasm;
  if (copied([bytes], bytes.length) === null) return null;
  holder = new WeakRef(reader);
  return wasm;
}

/**
 * The position after the `]` of the number list starting at `start` in `bytes`, or -1 - the position
 * of the first byte that breaks the grammar; undefined when the JavaScript loop must do it. `reader`
 * names the one reading `bytes`: its bytes are copied at its first call only.
 */
export function wasmNumberListEnd(
  bytes: Uint8Array,
  start: number,
  reader: object,
): number | undefined {
  return withBytes(bytes, reader)?.listEnd(start);
}

/** How many numbers the last list checked by wasmNumberListEnd held. */
export function wasmListCount(): number {
  return (loaded?.count.value as number | undefined) ?? 0;
}

/** The position of the first byte from `start` that is not a base64 character; undefined when the JavaScript loop must find it. */
export function wasmBase64End(
  bytes: Uint8Array,
  start: number,
  reader: object,
): number | undefined {
  return withBytes(bytes, reader)?.base64End(start);
}
