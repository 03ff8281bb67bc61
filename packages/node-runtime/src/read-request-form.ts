import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import {
  GatewayError,
  ImageDataUrlWriter,
  isGatewayError,
  type Base64Encoder,
  type FormPart,
} from '@infergate/core';
import type { BodyTicket } from './create-body-admission.js';
import type { RequestBodyOptions } from './read-request-body.js';

export interface RequestFormOptions extends RequestBodyOptions {
  /** Encodes each file chunk as it arrives (Node: Buffer's base64). */
  encodeBase64: Base64Encoder;
}

type Done = (error: Error | null, form?: FormPart[]) => void;

// A form's field names are short; busboy cuts longer ones, which would then name another field.
const maxFieldNameBytes = 256;

function unreadable(detail: string): GatewayError {
  return GatewayError.badRequest(`The multipart form could not be read: ${detail}`);
}

/**
 * Reads a multipart/form-data request body of a Node server into core's form parts, with busboy: the
 * body is counted as readRequestBody counts it (413 past `limit`, the in-flight budget's 503, the
 * idle limit's 408, 400 for a length other than Content-Length), and each file is written into its
 * data URL chunk by chunk as it arrives, so the form is never held whole as bytes. A form busboy
 * cannot parse is a 400; a file that is no image, a 400 naming its field.
 */
export function readRequestForm(
  payload: Readable,
  options: RequestFormOptions,
  done: Done,
): BodyTicket | undefined {
  const { limit, headers } = options;
  const contentLength = Number(headers['content-length']);
  const declared = Number.isInteger(contentLength) && contentLength >= 0;
  if (contentLength > limit) {
    done(GatewayError.payloadTooLarge(limit));
    return undefined;
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: headers as IncomingHttpHeaders & { 'content-type': string },
      // The body's limit bounds every part; busboy's own smaller defaults would cut a field silently.
      limits: { fieldSize: limit, fileSize: limit, fieldNameSize: maxFieldNameBytes },
      defParamCharset: 'utf8',
    });
  } catch (error) {
    done(unreadable(error instanceof Error ? error.message : String(error)));
    return undefined;
  }

  let ticket: BodyTicket | undefined;
  let finished = false;
  try {
    ticket = options.admit?.(
      {
        contentLength: headers['content-length'],
        chunked: headers['transfer-encoding'] !== undefined,
      },
      limit,
      () => fail(GatewayError.requestTimeout()),
    );
  } catch (error) {
    fail(error as Error);
    return undefined;
  }

  // A file's place is taken when it starts and filled when it ends, so parts keep the order they were sent in.
  const parts: (FormPart | undefined)[] = [];
  let received = 0;

  function stop(): void {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onEnd);
  }

  function fail(error: Error): void {
    if (finished) return;
    finished = true;
    stop();
    ticket?.release();
    parser.removeAllListeners();
    parser.on('error', () => undefined);
    parser.destroy();
    parts.length = 0;
    done(error);
  }

  parser.on('field', (name, value, info) => {
    if (info.nameTruncated) return fail(unreadable('a field name is too long.'));
    parts.push({ kind: 'field', name, value });
  });
  parser.on('file', (name, stream, info) => {
    // The body's declared length bounds the file's: its data URL is then written into one buffer.
    const writer = new ImageDataUrlWriter(
      name,
      info.mimeType,
      options.encodeBase64,
      declared ? contentLength : undefined,
    );
    const index = parts.push(undefined) - 1;
    stream.on('data', (chunk: Buffer) => writer.write(chunk));
    // A form that ends inside a file fails the file's stream as well as the parser.
    stream.on('error', (error: Error) => fail(unreadable(`${error.message}.`)));
    stream.on('end', () => {
      if (finished) return;
      try {
        parts[index] = writer.end();
      } catch (error) {
        fail(isGatewayError(error) ? error : unreadable(String(error)));
      }
    });
  });
  parser.on('error', (error: Error) => fail(unreadable(`${error.message}.`)));
  parser.on('close', () => {
    if (finished) return;
    finished = true;
    stop();
    ticket?.received();
    // Every file has ended before busboy closes.
    done(
      null,
      parts.filter((part) => part !== undefined),
    );
  });

  function onData(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    received += bytes.byteLength;
    if (received > limit) return fail(GatewayError.payloadTooLarge(limit));
    if (ticket !== undefined && !ticket.take(bytes.byteLength))
      return fail(GatewayError.overloaded());
    if (!parser.write(bytes)) {
      payload.pause();
      parser.once('drain', () => payload.resume());
    }
  }

  function onEnd(error?: Error & { statusCode?: number }): void {
    if (error !== undefined) {
      if (!(typeof error.statusCode === 'number' && error.statusCode >= 400))
        error.statusCode = 400;
      return fail(error);
    }
    if (!Number.isNaN(contentLength) && received !== contentLength)
      return fail(
        GatewayError.badRequest(
          'The request body length does not match its Content-Length header.',
        ),
      );
    payload.removeListener('data', onData);
    parser.end();
  }

  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onEnd);
  payload.resume();
  return ticket;
}
