const encoder = new TextEncoder();

/** vLLM's SSE framing: `data: <compact JSON>` and a blank line; no event names, ids or comments. */
export function sseData(value: unknown): Uint8Array {
  return encoder.encode(`data: ${JSON.stringify(value)}\n\n`);
}

/** The literal terminator vLLM sends last, also after an error event. */
export const sseDone: Uint8Array = encoder.encode('data: [DONE]\n\n');

export const sseHeaders: HeadersInit = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
};
