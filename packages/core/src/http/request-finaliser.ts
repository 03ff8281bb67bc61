import type { AdmissionGate } from '../admission/admission-gate.js';
import type { Clock, MetricsSink, RequestObservation, RequestRecord } from '../handlers/ports.js';
import { usedTokens, type LimitTicket } from '../limits/limit-request.js';
import type { ResultMeta, StreamResult } from './handler-types.js';

/** What a finaliser ends a request against: the gateway's admission cap, metrics and clock. */
export interface FinaliserSource {
  readonly admission: AdmissionGate;
  readonly deps: { readonly metrics: MetricsSink; readonly clock: Clock };
}

// DESIGN.md: a client that goes away is logged as 499, a status never sent.
const clientClosedRequest = 499;
// A chunk is one encoded event; a ':' chunk is a keep-alive comment, not model output.
const commentByte = 0x3a;

/**
 * The one place that decides a request is over, exactly once: a JSON answer when it is ready, a
 * stream when it closes, fails or is cancelled by the client. Ending gives back the admission slot,
 * settles the key's token reservation with the usage reported (a cut stream: the prompt estimate plus
 * the events sent), closes the active-streams gauge and records the request's metrics.
 *
 * For a stream it is itself the underlying source of the stream the client reads (the stream calls
 * pull and cancel on it), passing the handler's stream through pull for pull with no closures.
 */
export class RequestFinaliser implements UnderlyingDefaultSource<Uint8Array> {
  private ended = false;
  private status = 0;
  private meta: ResultMeta = {};
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private firstByteMs = -1;
  private events = 0;

  /** @param holdsSlot whether the request took a slot of the admission cap (routes with a body). */
  constructor(
    private readonly gateway: FinaliserSource,
    private readonly requestId: string,
    private readonly operationId: string,
    private readonly startedAt: number,
    private readonly holdsSlot: boolean,
    private readonly ticket: LimitTicket | undefined,
  ) {}

  /** A JSON answer: the request is over now. */
  finishJson(status: number, meta: ResultMeta, errorCode: string | undefined): void {
    this.status = status;
    this.meta = meta;
    this.end(false, errorCode);
  }

  /**
   * The stream the client reads for a stream answer. `result.meta` is read when the stream ends: the
   * handler fills in model and tokens as the stream runs.
   */
  stream(result: StreamResult): ReadableStream<Uint8Array> {
    this.status = result.status;
    this.meta = result.meta;
    this.reader = result.stream.getReader();
    try {
      this.gateway.deps.metrics.streamStarted?.();
    } catch {
      // A failing metrics sink must not turn a served request into an error.
    }
    return new ReadableStream<Uint8Array>(this, { highWaterMark: 0 });
  }

  async pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    const reader = this.reader as ReadableStreamDefaultReader<Uint8Array>;
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (error) {
      if (this.ended) return;
      this.end(false, undefined);
      controller.error(error);
      return;
    }
    // Cancelled by the client while this read was pending: cancel() ended the request.
    if (this.ended) return;
    if (chunk.done) {
      // Ended before the client sees the close, so what it reads next (say, /metrics) counts this request.
      this.end(false, undefined);
      controller.close();
      return;
    }
    if (this.firstByteMs < 0) this.firstByteMs = this.gateway.deps.clock.now() - this.startedAt;
    if (chunk.value[0] !== commentByte) this.events += 1;
    controller.enqueue(chunk.value);
  }

  /**
   * The client went away: the request ends now, as a 499, before the cancel reaches the handler's
   * stream (which aborts the upstream call): a read pending meanwhile resolves as done, and must not
   * count the request as a stream that completed.
   */
  async cancel(reason: unknown): Promise<void> {
    this.end(true, undefined);
    await this.reader?.cancel(reason);
  }

  private end(cancelled: boolean, errorCode: string | undefined): void {
    if (this.ended) return;
    this.ended = true;
    const { gateway, meta } = this;
    // A stream holds its admission slot until it ends: open streams are what the cap bounds.
    if (this.holdsSlot) gateway.admission.release();
    const streamed = this.reader !== undefined;
    if (this.ticket !== undefined) this.ticket.lease.settle(usedTokens(this.ticket, meta, streamed ? this.events : undefined));
    const { metrics } = gateway.deps;
    const durationMs = gateway.deps.clock.now() - this.startedAt;
    const record: RequestRecord = { requestId: this.requestId, operationId: this.operationId, status: cancelled ? clientClosedRequest : this.status };
    if (meta.model !== undefined) record.model = meta.model;
    if (meta.endpoint !== undefined) record.endpoint = meta.endpoint;
    if (meta.keyName !== undefined) record.keyName = meta.keyName;
    if (meta.inputTokens !== undefined) record.inputTokens = meta.inputTokens;
    if (meta.outputTokens !== undefined) record.outputTokens = meta.outputTokens;
    if (meta.promptEnhancement !== undefined) record.promptEnhancement = meta.promptEnhancement;
    if (streamed) {
      try {
        metrics.streamEnded?.();
      } catch {
        // As below: the sink's failure is not the request's.
      }
    }
    try {
      if (metrics.observe === undefined) {
        metrics.record(record);
      } else {
        const observation = record as RequestObservation;
        observation.durationMs = durationMs;
        observation.firstByteMs = this.firstByteMs < 0 ? durationMs : this.firstByteMs;
        observation.streamed = streamed;
        if (errorCode !== undefined) observation.errorCode = errorCode;
        metrics.observe(observation);
      }
    } catch {
      // A failing metrics sink must not turn a served request into an error or reject dispatch.
    }
  }
}
