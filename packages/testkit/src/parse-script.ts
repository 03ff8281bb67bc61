/** A fault script of the fault matrix "How to simulate", parsed. */
export type Script =
  | { kind: 'ok'; chunks: number; delayMs: number }
  | { kind: 'stall-before-headers' }
  | { kind: 'stall-after-headers' }
  | { kind: 'stall-after'; chunks: number }
  | { kind: 'reset-after'; chunks: number }
  | { kind: 'eof-after'; chunks: number }
  | { kind: 'status'; status: number; body: string }
  | { kind: 'redirect' }
  | { kind: 'huge' }
  | { kind: 'echo-auth' }
  | { kind: 'fail-then-ok' }
  | { kind: 'split'; seed: number };

const bare = new Set([
  'stall-before-headers',
  'stall-after-headers',
  'redirect',
  'huge',
  'echo-auth',
  'fail-then-ok',
]);

function count(text: string | undefined): number | undefined {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}

/** `ok:N:D`, `stall-after:k`, `status:S[:body]`...; undefined when the text is not a script. */
export function parseScript(text: string): Script | undefined {
  const [name = '', first, ...rest] = text.split(':');
  if (bare.has(name) && first === undefined) return { kind: name } as Script;
  if (name === 'ok') {
    const chunks = count(first ?? '3');
    const delayMs = count(rest[0] ?? '0');
    return chunks !== undefined && delayMs !== undefined
      ? { kind: 'ok', chunks, delayMs }
      : undefined;
  }
  if (name === 'stall-after' || name === 'reset-after' || name === 'eof-after') {
    const chunks = count(first);
    return chunks !== undefined ? { kind: name, chunks } : undefined;
  }
  if (name === 'split') {
    const seed = count(first);
    return seed !== undefined ? { kind: 'split', seed } : undefined;
  }
  if (name === 'status') {
    const status = count(first);
    return status !== undefined && status >= 100 && status <= 599
      ? { kind: 'status', status, body: rest.length > 0 ? rest.join(':') : 'json' }
      : undefined;
  }
  return undefined;
}
