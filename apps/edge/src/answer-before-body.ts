import { bodyText, type JsonResult } from '@infergate/core';

// Enough for what a client has in flight when the answer reaches it; row 3 of the fault matrix bounds
// what the server reads past the limit at 1 MiB.
const lingerBytes = 1024 * 1024;
const lingerMs = 500;

async function discard(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => resolve('expired'), lingerMs);
  });
  try {
    for (let read = 0; read <= lingerBytes;) {
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
 * An error answered before the request body was read in full (413): the answer goes out at once, and
 * the response ends once the rest of the body in flight has been read and dropped (up to 1 MiB or
 * 500 ms), a lingering close. workerd closes a connection with an unread request body by a reset,
 * and a reset makes the client's kernel drop the answer it has not read yet: the client would see
 * ECONNRESET instead of the 413.
 */
export function answerBeforeBody(result: JsonResult, body: ReadableStream<Uint8Array> | null): Response {
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
  // Node's server then closes the connection rather than reading the rest for the next request.
  return new Response(stream, { status: result.status, headers: { ...result.headers, connection: 'close' } });
}
