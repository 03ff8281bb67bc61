import { request } from 'node:http';

export interface StreamedBodyOutcome {
  /** The status the client saw; 0 when it saw none. */
  status: number;
  /** The error code the request emitted (EPIPE, ECONNRESET...), if any. */
  error: string | undefined;
  /** Body bytes the client handed to its socket. */
  written: number;
}

/**
 * POSTs a body of `totalBytes` with node:http, chunked or with a declared Content-Length, writing as
 * fast as the socket takes it: what an SDK uploading a large body does.
 */
export function streamBodyWithNodeHttp(
  url: string,
  options: {
    headers: Record<string, string>;
    totalBytes: number;
    declared: boolean;
    piece?: Buffer;
  },
): Promise<StreamedBodyOutcome> {
  const piece = options.piece ?? Buffer.alloc(64 * 1024, 0x61);
  return new Promise((resolve) => {
    let status = 0;
    let error: string | undefined;
    let written = 0;
    const headers = {
      ...options.headers,
      ...(options.declared ? { 'content-length': String(options.totalBytes) } : {}),
    };
    const client = request(url, { method: 'POST', headers, agent: false });
    client.on('response', (response) => {
      status = response.statusCode ?? 0;
      response.resume();
    });
    client.on('error', (failure: NodeJS.ErrnoException) => {
      error ??= failure.code ?? failure.message;
    });
    client.on('close', () => resolve({ status, error, written }));
    const pump = (): void => {
      while (written < options.totalBytes) {
        if (client.destroyed) return;
        const next = piece.subarray(0, Math.min(piece.length, options.totalBytes - written));
        written += next.length;
        if (!client.write(next)) {
          client.once('drain', pump);
          return;
        }
      }
      client.end();
    };
    pump();
  });
}
