import { numberListWasmBase64 } from './number-list-wasm.js';

/*
 * json-text-scanner's number-list check (numberListEnd) compiled to WebAssembly from
 * number-list-check.wat: the same grammar and the same positions. Reading the bench's 16 x 1024
 * answer whole (the copy into the module's memory included) took 423-513 us against 605-826 us with
 * the JavaScript loop, in one process. Where a runtime refuses to compile WebAssembly from bytes
 * (Cloudflare Workers) the scanner keeps its JavaScript loop.
 */

interface NumberListExports {
  memory: WebAssembly.Memory;
  count: WebAssembly.Global;
  listEnd(at: number, last: number): number;
}

// WebAssembly memory never shrinks: an answer above this is checked in JavaScript, so that one huge
// answer does not hold its size for the life of the process.
const maxCopiedBytes = 8 * 1024 * 1024;

// undefined until first asked for; null where the runtime refused it.
let loaded: NumberListExports | null | undefined;
let enabled = true;
// Who the memory holds the bytes of: a reader copies its answer once, for all its lists.
let holder: WeakRef<object> | undefined;

/** The module's exports, compiled at the first call; null where the runtime refuses to compile it. */
function loadedExports(): NumberListExports | null {
  if (loaded === undefined) loaded = load();
  return loaded;
}

function load(): NumberListExports | null {
  try {
    const bytes = Uint8Array.from(atob(numberListWasmBase64), (character) => character.charCodeAt(0));
    return new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports as unknown as NumberListExports;
  } catch {
    return null;
  }
}

/** For tests: run the JavaScript loop even where WebAssembly is available. */
export function useWasmNumberCheck(use: boolean): void {
  enabled = use;
}

/** Whether lists are checked by WebAssembly in this runtime now. */
export function wasmNumberCheckInUse(): boolean {
  return enabled && loadedExports() !== null;
}

/**
 * The position after the `]` of the number list starting at `start` in `bytes`, or -1 - the position
 * of the first byte that breaks the grammar; undefined when the JavaScript loop must do it. `reader`
 * names the one reading `bytes`: its bytes are copied at its first list only.
 */
export function wasmNumberListEnd(bytes: Uint8Array, start: number, reader: object): number | undefined {
  if (!enabled || bytes.length > maxCopiedBytes) return undefined;
  const wasm = loadedExports();
  if (wasm === null) return undefined;
  if (holder?.deref() !== reader) {
    const missing = bytes.length + 1 - wasm.memory.buffer.byteLength;
    try {
      if (missing > 0) wasm.memory.grow(Math.ceil(missing / 65_536));
    } catch {
      return undefined;
    }
    const memory = new Uint8Array(wasm.memory.buffer);
    memory.set(bytes);
    // The end of the text, as JavaScript's undefined past the last byte: no digit, blank, `,` or `]`.
    memory[bytes.length] = 0;
    holder = new WeakRef(reader);
  }
  return wasm.listEnd(start, bytes.length - 8);
}

/** How many numbers the last list checked by wasmNumberListEnd held. */
export function wasmListCount(): number {
  return (loaded?.count.value as number | undefined) ?? 0;
}
