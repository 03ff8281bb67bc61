import type { AdmissionGate } from '../admission/admission-gate.js';
import type { GatewayConfig } from '../config/gateway-config.js';
import type { Clock, MetricsSink, RequestObservation, RequestRecord } from '../ports/ports.js';
import { usedTokens, type LimitTicket } from '../limits/limit-request.js';
import type { BudgetTicket } from '../budgets/budget-request.js';
import { requestCost } from '../config/request-cost.js';
import { encodeSseEvent, encodeSseEvents } from '../sse/encode-sse-event.js';
import type { SseEvent } from '../sse/sse-event.js';
import type { StatusBoard } from '../status/status-board.js';
import type { TakeableIterator } from '../sse/takeable-iterator.js';
import type { EventStreamResult, ResultMeta, StreamBody } from '../ports/handler-types.js';

/** What a finaliser ends a request against: the gateway's admission cap, metrics, clock and keep-alive period. */
export interface FinaliserSource {
  readonly admission: AdmissionGate;
  /** The operator page's counts: fed every finished request and the open streams. */
  readonly status: StatusBoard;
  readonly deps: {
    readonly metrics: MetricsSink;
    readonly clock: Clock;
    readonly config: {
      readonly timeouts: { readonly keepaliveMs: number };
      readonly prices: GatewayConfig['prices'];
    };
  };
}

// docs/design.md: a client that goes away is logged as 499, a status never sent.
const clientClosedRequest = 499;
const keepaliveComment = new TextEncoder().encode(': keepalive\n\n');
// The events of one read, gathered to be encoded as one chunk: one array for every stream, as a read
// gathers and encodes them without a wait; emptied after each use so that it holds no event.
const batch: SseEvent[] = [];

/**
 * The one place that decides a request is over, exactly once: it gives back the admission slot, settles
 * the key's token and budget reservations, closes the active-streams gauge and records the metrics. For a stream it
 * is also what the client's bytes are read from (`read()` for node-server, a Web stream's source for
 * the edge app): each read takes every event ready as one chunk and nothing is read upstream before the
 * client asks, and while a read waits, `: keepalive` comments keep proxies from timing the stream out.
 */
export class RequestFinaliser implements UnderlyingDefaultSource<Uint8Array>, StreamBody {
  private ended = false;
  private status = 0;
  private meta: ResultMeta = {};
  private events: TakeableIterator<SseEvent> | undefined;
  private onCancel: (() => void) | undefined;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private readable: ReadableStream<Uint8Array> | undefined;
  private keepaliveSink: ((chunk: Uint8Array) => void) | undefined;
  private endListener: ((status: number) => void) | undefined;
  private cancelled = false;
  private firstByteMs = -1;
  private sent = 0;
  // One keep-alive timer per stream, not one per event: a pull only notes when its wait began, and
  // the timer, armed by the first wait after it last fired idle, sends a comment once a wait has lasted
  // keepaliveMs.
  private waitingSince = -1;
  private keepalive: ReturnType<typeof setTimeout> | undefined;

  /** @param holdsSlot whether the request took a slot of the admission cap (routes with a body). */
  constructor(
    private readonly gateway: FinaliserSource,
    private readonly requestId: string,
    private readonly operationId: string,
    private readonly startedAt: number,
    private readonly holdsSlot: boolean,
    private readonly ticket: LimitTicket | undefined,
    private readonly budget: BudgetTicket | undefined,
  ) {}

  /** A JSON answer: the request is over now. */
  finishJson(status: number, meta: ResultMeta, errorCode: string | undefined): void {
    this.status = status;
    this.meta = meta;
    this.end(false, errorCode);
  }

  /**
   * Takes a stream answer: the finaliser is then its StreamBody. `result.meta` is read when the stream
   * ends: the handler fills in model and tokens as the stream runs.
   */
  open(result: EventStreamResult): StreamBody {
    this.status = result.status;
    this.meta = result.meta;
    this.events = result.events[Symbol.asyncIterator]() as TakeableIterator<SseEvent>;
    this.onCancel = result.onCancel;
    this.gateway.status.streamStarted();
    try {
      this.gateway.deps.metrics.streamStarted?.();
    } catch {
      // A failing metrics sink must not turn a served request into an error.
    }
    return this;
  }

  /** The opened stream as a Web stream, made once (the edge app's Response body; core's tests). */
  readableStream(): ReadableStream<Uint8Array> {
    this.readable ??= new ReadableStream<Uint8Array>(this, { highWaterMark: 0 });
    return this.readable;
  }

  /** `open(result)` read as a Web stream. */
  stream(result: EventStreamResult): ReadableStream<Uint8Array> {
    this.open(result);
    return this.readableStream();
  }

  onKeepalive(write: (chunk: Uint8Array) => void): void {
    this.keepaliveSink = write;
  }

  onEnd(listener: (status: number) => void): void {
    if (this.ended) listener(this.status);
    else this.endListener = listener;
  }

  start(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.controller = controller;
  }

  async pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    let chunk: Uint8Array | undefined;
    try {
      chunk = await this.read();
    } catch (error) {
      controller.error(error);
      return;
    }
    // Cancelled by the client while this read was pending: the Web stream is already closed.
    if (this.cancelled) return;
    if (chunk === undefined) controller.close();
    else controller.enqueue(chunk);
  }

  async read(): Promise<Uint8Array | undefined> {
    if (this.ended) return undefined;
    const events = this.events as TakeableIterator<SseEvent>;
    const keepaliveMs = this.gateway.deps.config.timeouts.keepaliveMs;
    if (keepaliveMs > 0) {
      this.waitingSince = Date.now();
      this.keepalive ??= setTimeout(this.sendKeepalive, keepaliveMs);
    }
    let next: IteratorResult<SseEvent>;
    try {
      next = await events.next();
    } catch (error) {
      if (this.ended) return undefined;
      this.end(false, undefined);
      throw error;
    }
    this.waitingSince = -1;
    // Cancelled by the client while this read was pending: cancel() ended the request.
    if (this.ended) return undefined;
    if (next.done === true) {
      // Ended before the client sees the close, so what it reads next (say, /metrics) counts this request.
      this.end(false, undefined);
      return undefined;
    }
    if (this.firstByteMs < 0) this.firstByteMs = this.gateway.deps.clock.now() - this.startedAt;
    let more = events.take?.();
    if (more === undefined) {
      this.sent += 1;
      return encodeSseEvent(next.value);
    }
    batch.push(next.value);
    try {
      do batch.push(more);
      while ((more = events.take?.()) !== undefined);
      // Counted in events, not chunks: a cut stream's tokens are settled from the events sent.
      this.sent += batch.length;
      return encodeSseEvents(batch);
    } finally {
      batch.length = 0;
    }
  }

  /**
   * The client went away: the request ends now, as a 499, before the cancel reaches the handler's
   * events (which aborts the upstream call): a read pending meanwhile resolves as done, and must not
   * count the request as a stream that completed.
   */
  async cancel(): Promise<void> {
    this.cancelled = true;
    this.end(true, undefined);
    this.onCancel?.();
    // Not awaited: return() may wait for a pending next() (see EventStreamResult.onCancel).
    this.events?.return?.().catch(() => undefined);
  }

  private readonly sendKeepalive = (): void => {
    this.keepalive = undefined;
    if (this.ended || this.waitingSince < 0) return;
    const keepaliveMs = this.gateway.deps.config.timeouts.keepaliveMs;
    // Wall time, as the timers run on it (a gateway's injected clock may be a test's fixed one).
    const waited = Date.now() - this.waitingSince;
    if (waited >= keepaliveMs) {
      // Only when nothing is queued: a client that is not reading gets at most one comment waiting
      // (a direct reader's sink makes the same check on its socket). Each chunk is a whole event, so
      // a comment between two chunks never splits one.
      const { controller } = this;
      if (controller === undefined) this.keepaliveSink?.(keepaliveComment);
      else if ((controller.desiredSize ?? 0) >= 0) controller.enqueue(keepaliveComment);
      this.waitingSince = Date.now();
      this.keepalive = setTimeout(this.sendKeepalive, keepaliveMs);
    } else {
      this.keepalive = setTimeout(this.sendKeepalive, keepaliveMs - waited);
    }
  };

  private end(cancelled: boolean, errorCode: string | undefined): void {
    if (this.ended) return;
    this.ended = true;
    if (this.keepalive !== undefined) clearTimeout(this.keepalive);
    this.keepalive = undefined;
    const { gateway, meta } = this;
    // A stream holds its admission slot until it ends: open streams are what the cap bounds.
    if (this.holdsSlot) gateway.admission.release();
    const streamed = this.events !== undefined;
    if (this.ticket !== undefined)
      this.ticket.lease.settle(usedTokens(this.ticket, meta, streamed ? this.sent : undefined));
    const { metrics } = gateway.deps;
    const now = gateway.deps.clock.now();
    const durationMs = now - this.startedAt;
    if (cancelled) this.status = clientClosedRequest;
    const record: RequestRecord = {
      requestId: this.requestId,
      operationId: this.operationId,
      status: this.status,
    };
    if (meta.model !== undefined) record.model = meta.model;
    if (meta.endpoint !== undefined) record.endpoint = meta.endpoint;
    if (meta.keyName !== undefined) record.keyName = meta.keyName;
    if (meta.inputTokens !== undefined) record.inputTokens = meta.inputTokens;
    if (meta.outputTokens !== undefined) record.outputTokens = meta.outputTokens;
    if (meta.promptEnhancement !== undefined) record.promptEnhancement = meta.promptEnhancement;
    const { prices } = gateway.deps.config;
    const cost = requestCost(meta, prices);
    if (cost.length > 0) {
      meta.cost = cost;
      record.cost = cost;
    }
    if (this.budget !== undefined) {
      this.budget.settle(meta, cost, streamed ? this.sent : undefined, prices);
      if (meta.keyName !== undefined)
        gateway.status.noteBudget(
          meta.keyName,
          this.budget.lease.remaining,
          this.budget.lease.resetAt,
        );
    }
    if (streamed) {
      gateway.status.streamEnded();
      try {
        metrics.streamEnded?.();
      } catch {
        // As below: the sink's failure is not the request's.
      }
    }
    const firstByteMs = this.firstByteMs < 0 ? durationMs : this.firstByteMs;
    // A sink that keeps only records gets the record as it is; the timings then go on a copy.
    let observation: RequestObservation;
    if (metrics.observe === undefined) {
      try {
        metrics.record(record);
      } catch {
        // A failing metrics sink must not turn a served request into an error or reject dispatch.
      }
      observation = { ...record, durationMs, firstByteMs, streamed };
    } else {
      observation = record as RequestObservation;
      observation.durationMs = durationMs;
      observation.firstByteMs = firstByteMs;
      observation.streamed = streamed;
    }
    if (errorCode !== undefined) observation.errorCode = errorCode;
    gateway.status.observe(now, observation, meta.failure);
    if (metrics.observe !== undefined) {
      try {
        metrics.observe(observation);
      } catch {
        // As above.
      }
    }
    this.endListener?.(this.status);
    this.endListener = undefined;
  }
}
