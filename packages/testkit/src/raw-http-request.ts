import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface RawHttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** Body bytes written before the response arrived (or all of them). */
  bytesSent: number;
}

export interface RawHttpRequestOptions {
  method: string;
  headers: Record<string, string>;
  /** Sent as these separate writes (chunked unless a content-length header is given). */
  chunks: Iterable<string | Uint8Array>;
}

/**
 * One request over a fresh node:http connection, resolved with the first response even when the
 * server answers (413, 415) before the body has been sent and then closes: writes after that are
 * dropped rather than failing the test, which is what a real client of an early-answering server sees.
 */
export function rawHttpRequest(
  url: string,
  options: RawHttpRequestOptions,
): Promise<RawHttpResponse> {
  return new Promise((resolve, reject) => {
    let answered = false;
    let bytesSent = 0;
    let sentAtAnswer = 0;
    const request = httpRequest(url, {
      method: options.method,
      headers: options.headers,
      agent: false,
    });
    request.on('response', (response) => {
      answered = true;
      sentAtAnswer = bytesSent;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      const settle = (): void =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          bytesSent: sentAtAnswer,
        });
      response.on('end', settle);
      response.on('error', settle);
    });
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    void (async () => {
      for (const chunk of options.chunks) {
        if (answered || request.destroyed) break;
        bytesSent += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
        if (!request.write(chunk)) {
          await new Promise<void>((resume) => {
            const done = (): void => {
              request.off('drain', done);
              request.off('close', done);
              request.off('response', done);
              resume();
            };
            request.on('drain', done);
            request.on('close', done);
            request.on('response', done);
          });
        }
      }
      if (!request.destroyed) request.end();
    })();
  });
}
