import { bodyText, earlyAnswerLinger, type JsonResult } from '@infergate/core';

async function discard(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => resolve('expired'), earlyAnswerLinger.ms);
  });
  try {
    for (let read = 0; read <= earlyAnswerLinger.bytes;) {
      const chunk = await Promise.race([reader.read(), expired]);
      if (chunk === 'expired' || chunk.done) break;
      read += chunk.value.byteLength;
    }
  } catch {
    // The client went away: nothing left to discard.
  } finally {
    clearTimeout(timer);
    reader.cancel().catch(() => undefined);
  }
}

/**
 * An error answered before the request body arrived in full (401, 413, 415, 503, 408), with a lingering
 * close (core's earlyAnswerLinger): the answer goes out whole with `Connection: close`, and the
 * connection closes once the body in flight has been read and dropped, the client has stopped sending,
 * or the bound is reached. workerd and Node close a connection with an unread body by a reset, and the
 * client would see ECONNRESET instead of the status.
 */
export function answerBeforeBody(
  result: JsonResult,
  body: ReadableStream<Uint8Array> | null,
): Response {
  const answer = new TextEncoder().encode(bodyText(result.body));
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(answer);
    },
    // Pulled once the answer has been taken by the runtime.
    async pull(controller) {
      if (body) await discard(body);
      controller.close();
    },
  });
  const headers = {
    ...result.headers,
    'content-length': String(answer.byteLength),
    connection: 'close',
  };
  return new Response(stream, { status: result.status, headers });
}
