import type { z } from 'zod';
import type { Endpoint } from '../catalogue/catalogue-types.js';
import type { FallbackChain, FallbackStep } from '../catalogue/fallback-chain.js';
import type { CostPart } from '../config/request-cost.js';
import type { ErrorEnvelope } from '../errors/error-envelopes.js';
import type { FailureFacts } from '../errors/failure-facts.js';
import type {
  AbortSignalLike,
  ApiKeyIdentity,
  Base64Encoder,
  Clock,
  IdSource,
  KeyStore,
  MetricsSink,
  UpstreamPort,
} from './ports.js';
import type { GatewayConfig } from '../config/gateway-config.js';
import type { SseEvent } from '../sse/sse-event.js';
import type { FormPart } from './form-part.js';

/** What an app hands a handler: plain values, no framework objects. */
export interface HandlerInput {
  method: string;
  /** The request path without the query string. */
  path: string;
  /** Path parameters of the matched route (`{id}` segments). */
  params: Readonly<Record<string, string>>;
  /** Reads a request header by lower-case name. */
  header(name: string): string | undefined;
  /** The raw request body as text, undefined for requests without one (and for a form). */
  body: string | undefined;
  /** A multipart form's parts, in order, when the route takes forms and the client sent one. */
  form?: readonly FormPart[] | undefined;
  /** Aborted when the client goes away; passed on to the upstream call. */
  signal: AbortSignalLike;
  /** The request id already chosen by `requestIdFor` (echoed in `x-request-id`). */
  requestId: string;
}

/** Everything a handler may use besides its input: the ports and the resolved configuration. */
export interface GatewayDeps {
  config: GatewayConfig;
  upstream: UpstreamPort;
  keys: KeyStore;
  clock: Clock;
  ids: IdSource;
  metrics: MetricsSink;
  /** Encodes `base64` embeddings; absent: core's own encoder (a Node app passes Buffer's, several times faster). */
  encodeBase64?: Base64Encoder;
  /** Static assets the app loaded for the reference page at /docs; absent when it has none. */
  docsAssets?: DocsAssets;
  /** True once the app is leaving (SIGTERM): /readyz answers 503 so load balancers stop sending it requests. */
  draining?: () => boolean;
}

export interface DocsAssets {
  /** The reference renderer's browser bundle (Scalar's standalone script). */
  referenceScript: string;
}

/** Facts about the request for the app's log line and metrics; never a body, prompt or key. */
export interface ResultMeta {
  model?: string;
  /** The configured name (`upstreams[].name`) of the upstream that answered or failed last; never its URL. */
  endpoint?: string;
  /** Upstream attempts made (set on failures: 1 when nothing was retried). */
  attempts?: number;
  /** Set on every 5xx answer: why, for the operator's warn line. */
  failure?: FailureFacts;
  inputTokens?: number;
  outputTokens?: number;
  keyName?: string;
  /** The `-pe` image models' prompt rewrite: its tokens are charged to this text model, not the image model. */
  promptEnhancement?: { model: string; inputTokens: number; outputTokens: number };
  /** The models of a virtual model's list this request left before `model`, and why. */
  fallbacks?: readonly FallbackStep[];
  /** Images answered (image endpoints), for a price per image. */
  images?: number;
  /** What the request cost at the configured prices, per priced model; set once it is over. */
  cost?: readonly CostPart[];
}

export interface JsonResult {
  kind: 'json';
  status: number;
  /**
   * Lower-case header names; includes content-type and x-request-id. A fresh object per result: the
   * gateway adds its own headers (request id, CORS, rate limits) to it rather than copying it.
   */
  headers: Record<string, string>;
  /**
   * The body, already serialized, so that both apps send identical bytes: text, or UTF-8 bytes as
   * pieces sent one after another (an embeddings answer around the upstream's own bytes, sent without
   * a copy), with the content-length header set.
   */
  body: string | readonly Uint8Array[];
  meta: ResultMeta;
}

/**
 * A stream answer's encoded SSE read directly, without a Web stream in between (node-server writes
 * each chunk to its socket): one chunk per read, so a slow client slows the upstream read.
 */
export interface StreamBody {
  /** The next chunk (one or more whole events); undefined once the stream is over or cancelled. Rejects when the stream failed. */
  read(): Promise<Uint8Array | undefined>;
  /** The client went away: ends the request as a 499 and aborts the upstream call. */
  cancel(): Promise<void>;
  /**
   * Where keep-alive comments go while a read waits for the next event. `write` skips a comment when
   * the client has not taken what it was sent (at most one comment waits, as on the Web stream).
   */
  onKeepalive(write: (chunk: Uint8Array) => void): void;
  /**
   * Called once the request is over, with the status it ends with (499 when the client went away); the
   * result's meta is final by then. For an app that learns of the end no other way (the edge app's log).
   */
  onEnd(listener: (status: number) => void): void;
}

/** A stream answer as the gateway hands it to the app. */
export interface StreamResult {
  kind: 'stream';
  status: number;
  headers: Record<string, string>;
  /**
   * Pull-based encoded SSE, with keep-alive comments while the next event is not ready; `cancel()`
   * aborts the upstream call. Made on first use: read either this or `body`, never both.
   */
  readonly stream: ReadableStream<Uint8Array>;
  /** The same bytes without a Web stream (see StreamBody); read either this or `stream`, never both. */
  body: StreamBody;
  /** Filled in as the stream runs; final once the stream has closed. */
  meta: ResultMeta;
}

/** A handler's stream answer: its events, which the request's finaliser encodes, paces and ends. */
export interface EventStreamResult {
  kind: 'stream';
  status: number;
  headers: Record<string, string>;
  /** Read one event per client pull, so a slow client slows the upstream read; `return()` ends the upstream call. */
  events: AsyncIterable<SseEvent>;
  /**
   * Called at once when the client cancels. An async generator's return() waits until its pending
   * next() settles, that is until the upstream sends another event; this hook lets the handler abort
   * the upstream call without that wait.
   */
  onCancel?: () => void;
  /** Filled in as the stream runs; final once the stream has closed. */
  meta: ResultMeta;
}

/** What the gateway answers a request with. */
export type HandlerResult = JsonResult | StreamResult;

/**
 * Whether this replica should get new requests (`/readyz`): not while it drains for a shutdown, nor
 * while its admission cap is full. Model servers' health never enters it.
 */
export type Readiness = { ready: true } | { ready: false; reason: 'draining' | 'saturated' };

/** What a gateway builds once and its handlers share (the gateway object of createGateway). */
export interface GatewayShared {
  /** The OpenAPI document of this gateway (its catalogue), serialized; built on first use. */
  openApiDocument(): string;
  /** The store of the separate metrics key (`metrics.key`); undefined when none is configured. */
  readonly metricsKeys: KeyStore | undefined;
  /** This replica's readiness now. */
  readiness(): Readiness;
  /** The operator page's data now (GET /status.json), serialized. */
  statusJson(): string;
}

/** The context a route handler runs with: dependencies plus the authenticated caller. */
export interface HandlerContext extends GatewayDeps {
  identity: ApiKeyIdentity | undefined;
  gateway: GatewayShared;
  /** Set by the first attempt of a request for a virtual model with a list: the model each attempt calls. */
  fallback?: FallbackChain | undefined;
}

export type RouteHandler = (
  input: HandlerInput,
  context: HandlerContext,
) => Promise<JsonResult | EventStreamResult>;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Which body limit applies (docs/design.md: 2 MiB JSON-only routes, 100 MiB image-bearing routes). */
export type BodyLimitClass = 'none' | 'json' | 'image';

export interface RouteDefinition {
  method: HttpMethod;
  /** Path with `{name}` parameters, e.g. `/v1/responses/{id}`. */
  path: string;
  operationId: string;
  auth: boolean;
  /**
   * An operator endpoint: the handler itself lets in only operator keys (`keys[].operator`), 403 for
   * other keys, so `auth` stays false (/metrics also opens for the separate metrics key).
   */
  operator?: boolean;
  bodyLimit: BodyLimitClass;
  /** The route also takes a multipart/form-data body, which the app reads into `HandlerInput.form`. */
  multipart?: boolean;
  envelope: ErrorEnvelope;
  handler: RouteHandler;
  contract: RouteContract;
}

/**
 * What a route promises, the one source of its operation's shapes: the OpenAPI document is built from
 * it, and the contract suite holds every answer the gateway sends to it.
 */
export type RouteContract =
  | {
      /** The success answer is JSON, of `response`'s shape. */
      answers: 'json';
      response: z.ZodType;
      /** The statuses answered with `response`'s shape (200 unless set: /readyz says not_ready with 503). */
      responseStatuses?: readonly number[];
      request?: z.ZodType;
      /** The `data` of each event of the success answer when the request asks for `stream: true`. */
      events?: z.ZodType;
      /** The catalogue endpoint served: the models whose ids the `model` field may name. */
      endpoint?: Endpoint;
    }
  /** `text`: a page, a script, metrics or a redirect; `errors`: an endpoint that only ever refuses. */
  | { answers: 'text' | 'errors' };
