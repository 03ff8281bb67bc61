import type { IncomingMessage } from 'node:http';

/** Bodies above this are refused before buffering; a 4096x4096 PNG as a data URL is up to ~85 MiB. */
export const maxBodyBytes = 128 * 1024 * 1024;

export class BodyTooLargeError extends Error {}

/** Adapts a node request to a Web Request whose signal aborts when `signal` does (the client went away). */
export async function toWebRequest(
  incoming: IncomingMessage,
  origin: string,
  signal: AbortSignal,
): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = incoming.method ?? 'GET';
  let body: Uint8Array<ArrayBuffer> | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of incoming) {
      const bytes = chunk as Uint8Array;
      size += bytes.length;
      if (size > maxBodyBytes)
        throw new BodyTooLargeError(`request body over ${maxBodyBytes} bytes`);
      chunks.push(bytes);
    }
    body = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.length;
    }
  }
  return new Request(new URL(incoming.url ?? '/', origin), { method, headers, body, signal });
}
