import { LightAbortController, wholeBytes } from '@infergate/core';
import type {
  SseEvent,
  TimeoutsConfig,
  UpstreamCall,
  UpstreamError,
  UpstreamPhase,
  UpstreamResponse,
} from '@infergate/core';
import { classifyTransportError } from './classify-transport-error.js';
import { createEventIterator } from './create-event-iterator.js';
import type { JsonRequestBody } from './encode-json-body.js';
import type { Endpoint, EndpointPool } from './endpoint-pool.js';
import { raceAbort } from './race-abort.js';
import { readAnswerBytes } from './read-answer-bytes.js';
import { redactSecret } from './redact-secret.js';
import { createSseEventReader } from './sse-event-reader.js';
import { startTimer } from './start-timer.js';
import type { Transport } from './transport.js';
import { upstreamFailure } from './upstream-failure.js';

export type AttemptTimeouts = Pick<
  TimeoutsConfig,
  'connectMs' | 'headersMs' | 'firstEventMs' | 'idleMs' | 'streamTotalMs'
>;

export interface AttemptContext {
  call: UpstreamCall;
  endpoint: Endpoint;
  pool: EndpointPool;
  transport: Transport;
  timeouts: AttemptTimeouts;
  headers: Readonly<Record<string, string>>;
  body: JsonRequestBody;
  maxResponseBytes: number;
  maxEventBytes: number;
  /** Asked on a 502 or 503 before its body is read: true drops this answer so the port can try again. */
  retryStatus(status: number): boolean;
  /** Called once when a stream this attempt returned is over (ended, failed or abandoned). */
  onStreamEnd(): void;
  /** Told of the failure a stream this attempt returned throws to its reader. */
  onStreamError(error: unknown): void;
}

export type AttemptResult = { retry: true } | { retry: false; response: UpstreamResponse };

const retriedStatuses = new Set([502, 503]);
const decoder = new TextDecoder();
const answerTooLarge = () => upstreamFailure('too_large', 'body');

function parseJsonBody(bytes: Uint8Array, secret: string | undefined, status: number): unknown {
  // Error answers are the ones whose text core passes on to clients; success bodies are not scanned
  // (a hot path) and core never relays their free text as an error message.
  const text = status >= 300 ? redactSecret(decoder.decode(bytes), secret) : decoder.decode(bytes);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined; // core maps the status; an unreadable body only loses the upstream's message
  }
}

/**
 * One try against one endpoint. Owns the attempt's abort controller: the client's signal, every time
 * limit, the size cap and the consumer leaving all abort it, which closes the upstream connection.
 */
export async function sendAttempt(context: AttemptContext): Promise<AttemptResult> {
  const { call, endpoint, pool, timeouts } = context;
  const controller = new LightAbortController();
  const signal = controller.signal;
  let phase: UpstreamPhase = 'headers';
  let done = false;
  let streamReturned = false;
  const clears: Array<() => void> = [];

  const onClientAbort = () => controller.abort(upstreamFailure('aborted', phase));
  const finish = () => {
    if (done) return;
    done = true;
    endpoint.inFlight -= 1;
    call.signal.removeEventListener('abort', onClientAbort);
    signal.removeEventListener('abort', finish);
    for (const clear of clears) clear();
    if (streamReturned) context.onStreamEnd();
  };
  const fail = (error: unknown, at: 'headers' | 'body'): UpstreamError => {
    const failure = (
      signal.aborted ? signal.reason : classifyTransportError(error, at)
    ) as UpstreamError;
    if (!signal.aborted) controller.abort(failure);
    finish();
    return failure;
  };

  endpoint.inFlight += 1;
  // Any abort (a limit firing while nobody is reading, say) releases the attempt's timers and counters.
  signal.addEventListener('abort', finish, { once: true });
  call.signal.addEventListener('abort', onClientAbort, { once: true });
  if (call.signal.aborted) onClientAbort();

  // Started before the transport is called, so time queued for a connection counts (docs/design.md).
  const clearFirstByteLimit = startTimer(
    call.stream ? timeouts.firstEventMs : timeouts.headersMs,
    () => controller.abort(upstreamFailure('timeout', 'headers')),
  );
  clears.push(clearFirstByteLimit);
  if (call.stream) {
    clears.push(
      startTimer(timeouts.streamTotalMs, () =>
        controller.abort(
          upstreamFailure('timeout', phase, undefined, 'The stream reached its total time limit.'),
        ),
      ),
    );
  }

  let response;
  try {
    response = await raceAbort(
      context.transport.request({
        origin: endpoint.upstream.url,
        path: call.path,
        method: 'POST',
        headers: context.headers,
        body: context.body,
        signal,
        connectTimeoutMs: timeouts.connectMs,
      }),
      signal,
    );
  } catch (error) {
    const failure = fail(error, 'headers');
    if (failure.phase === 'connect') pool.recordFailure(endpoint, true);
    throw failure;
  }
  phase = 'body';
  const { status, headers } = response;
  if (status >= 500) pool.recordFailure(endpoint, false);
  else pool.recordSuccess(endpoint);

  if (retriedStatuses.has(status) && context.retryStatus(status)) {
    controller.abort(upstreamFailure('aborted', 'body'));
    return { retry: true };
  }

  const onIdle = () => controller.abort(upstreamFailure('timeout', 'body'));
  const isSse =
    call.stream &&
    status >= 200 &&
    status < 300 &&
    (headers['content-type'] ?? '').toLowerCase().startsWith('text/event-stream');
  if (!isSse) {
    clearFirstByteLimit();
    let pieces: Uint8Array[];
    try {
      pieces = await readAnswerBytes(response, {
        signal,
        idleMs: timeouts.idleMs,
        onIdle,
        maxBytes: context.maxResponseBytes,
        tooLarge: answerTooLarge,
      });
    } catch (error) {
      throw fail(error, 'body');
    }
    finish();
    if (call.raw === true && status >= 200 && status < 300) {
      // Core reads this answer from its bytes in one pass (embeddings): no join, no decode, no parse here.
      return {
        retry: false,
        response: {
          kind: 'json',
          status,
          headers,
          body: undefined,
          pieces,
          endpoint: endpoint.upstream.name,
        },
      };
    }
    return {
      retry: false,
      response: {
        kind: 'json',
        status,
        headers,
        body: parseJsonBody(wholeBytes(pieces), endpoint.upstream.apiKey, status),
        endpoint: endpoint.upstream.name,
      },
    };
  }

  // The first-event limit keeps running until an event is parsed: headers alone prove nothing.
  const events = createSseEventReader(response.body, {
    maxEventBytes: context.maxEventBytes,
    signal,
    idleMs: timeouts.idleMs,
    onIdle,
  });
  let first: IteratorResult<SseEvent, void>;
  try {
    first = await events.read(false);
  } catch (error) {
    events.release();
    throw fail(error, 'body');
  }
  clearFirstByteLimit();
  streamReturned = true;
  const iterator = createEventIterator(first.done === true ? undefined : first.value, events, {
    signal,
    abort: (reason) => {
      if (!signal.aborted) controller.abort(reason);
    },
    end: finish,
    failed: context.onStreamError,
  });
  return {
    retry: false,
    response: {
      kind: 'stream',
      status,
      headers,
      events: iterator,
      endpoint: endpoint.upstream.name,
    },
  };
}
