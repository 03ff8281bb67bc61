/**
 * The SSE text of a chat stream written the awkward ways the spec allows (fault-matrix row 15):
 * 4-byte UTF-8 characters, CRLF and lone-CR line ends, a `data:` value spread over two lines, and
 * comments; then `[DONE]`.
 */
export function splitStreamText(model: string): Uint8Array {
  const chunk = (content: string): string =>
    JSON.stringify({
      id: 'chatcmpl-split',
      object: 'chat.completion.chunk',
      created: 1,
      model,
      choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: null }],
    });
  const last = JSON.stringify({
    id: 'chatcmpl-split',
    object: 'chat.completion.chunk',
    created: 1,
    model,
    choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }],
  });
  const second = chunk('wörld 𝄞 ');
  const text = [
    `: opening comment\n`,
    `data: ${chunk('héllo 😀 ')}\n\n`,
    // One event's data over two lines: the client joins them with a newline, which JSON allows.
    `data: ${second.slice(0, 20)}\r\ndata: ${second.slice(20)}\r\n\r\n`,
    `: ping\r`,
    `data: ${chunk('ℤ∞ 🙂🙃 end')}\r\r`,
    `data: ${last}\n\n`,
    'data: [DONE]\n\n',
  ].join('');
  return new TextEncoder().encode(text);
}

/** `bytes` cut at offsets drawn from `seed` (0: not cut), 1-byte pieces included. */
export function splitFrames(bytes: Uint8Array, seed: number): Uint8Array[] {
  if (seed === 0) return [bytes];
  // mulberry32: a tiny seeded generator, so a failing seed replays the same cuts.
  let state = seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  const pieces: Uint8Array[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const size = random() < 0.3 ? 1 : 1 + Math.floor(random() * 40);
    pieces.push(bytes.subarray(offset, offset + size));
    offset += size;
  }
  return pieces;
}
