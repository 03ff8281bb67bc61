import type { AdmissionGate } from '../admission/admission-gate.js';
import type { RetryBudget } from '../admission/retry-budget.js';
import type { GatewayConfig } from '../config/gateway-config.js';
import type { GatewayError } from '../errors/gateway-error.js';
import type {
  ApiKeyIdentity,
  Base64Encoder,
  Clock,
  IdSource,
  KeyStore,
  MetricsSink,
  UpstreamPort,
} from '../ports/ports.js';
import type {
  DocsAssets,
  GatewayDeps,
  GatewayShared,
  HandlerInput,
  HandlerResult,
  JsonResult,
  RouteDefinition,
} from '../ports/handler-types.js';
import type { RouteMatch } from '../http/match-route.js';
import type { UnmatchedRequest } from '../http/unmatched-result.js';
import type { LimitStore } from '../limits/limit-store.js';
import type { StatusBoard, StatusKey } from '../status/status-board.js';
import type { BudgetStore } from '../budgets/budget-store.js';

/** The interfaces core declares and an app implements (with @infergate/upstream): core does no I/O. */
export interface GatewayPorts {
  /** Reaches the model servers. */
  upstream: UpstreamPort;
  /** Verifies API keys. */
  keys: KeyStore;
  /** Request ids and generated object ids. */
  ids: IdSource;
  /** `Date.now` when absent. */
  clock?: Clock;
  /** Nothing recorded when absent (GET /metrics answers 404). */
  metrics?: MetricsSink;
  /** Where key limits are counted (and budgets, when it is also a BudgetStore); in this process when absent. */
  limiter?: LimitStore;
  /** The reference page's script, for GET /docs/assets/reference.js; 404 there when absent. */
  docsAssets?: DocsAssets;
  /** Encodes `base64` embeddings; core's own encoder when absent (on Node, Buffer's is several times faster). */
  encodeBase64?: Base64Encoder;
}

export interface CreateGatewayOptions {
  config: GatewayConfig;
  ports: GatewayPorts;
  /** The routes served; core's route table when absent (tests give their own). */
  routes?: readonly RouteDefinition[];
  /** The configured keys' names and limits, for the operator page (GET /status). */
  keyEntries?: readonly StatusKey[];
}

/** One running gateway: its configuration, ports and the state its requests share. */
export interface Gateway extends GatewayShared {
  readonly config: GatewayConfig;
  /** The configuration and ports (defaults filled in): what every handler reads besides its caller. */
  readonly deps: GatewayDeps;
  readonly routes: readonly RouteDefinition[];
  /** The admission cap (`limits.max_concurrent_requests`): `inUse` is the requests holding a slot now. */
  readonly admission: AdmissionGate;
  /** Where key limits are counted: the port given, else this gateway's in-memory store. */
  readonly limiter: LimitStore;
  /** Where key budgets are counted: the limiter when it counts them too, else this gateway's in-memory store. */
  readonly budgets: BudgetStore;
  /** Requests moving on to the next model of a virtual model's list, capped like upstream retries. */
  readonly fallbacks: RetryBudget;
  /** True once drain() was called. */
  readonly draining: boolean;
  /**
   * The checks a request passes before its body is read (the admission cap, the key, the content type):
   * an app calls it before reading a byte of the body or counting it against the in-flight budget, and
   * answers a refusal at once. Throws the refusal (a GatewayError), or rejects when the key store had to
   * wait; otherwise the caller's identity, undefined on a route that needs no key.
   */
  checkBeforeBody(
    route: RouteDefinition,
    header: (name: string) => string | undefined,
  ): ApiKeyIdentity | undefined | Promise<ApiKeyIdentity | undefined>;
  /**
   * Runs a matched route to its result; never rejects (failures are the route's error envelope).
   * `checked`: the identity checkBeforeBody returned for this request, so that its key is verified once.
   */
  dispatch(
    route: RouteDefinition,
    input: HandlerInput,
    checked?: ApiKeyIdentity,
  ): Promise<HandlerResult>;
  /** The route for a method and path (without the query), or the 404 / 405 (with Allow) error. */
  match(method: string, path: string): RouteMatch | GatewayError;
  /** The answer to a request no route takes: a CORS preflight's 204, else 404 or 405. */
  unmatched(request: UnmatchedRequest): JsonResult;
  /** An answer the app gives itself (body too large, shutting down...) with the CORS headers dispatch adds to the others. */
  withCors(result: JsonResult, origin: string | undefined): JsonResult;
  /** GET /metrics on a port of its own (`metrics.port`): no key asked; 404 when metrics are off. */
  metricsPortResult(): JsonResult;
  /** The operator page on `metrics.port` (no key asked): /status, its script, /status.json; else undefined. */
  statusPortResult(path: string): JsonResult | undefined;
  /** From now on /readyz answers 503 (the drain before a shutdown); every other request is served as before. */
  drain(): void;
  /** The operator page's counts of this replica (GET /status). */
  readonly status: StatusBoard;
  /**
   * Checks new requests against these keys from now on (a configuration reload); a request already
   * past its key check finishes as it started. `entries`: the keys' names (metric labels) and limits.
   */
  replaceKeys(keys: KeyStore, entries: readonly StatusKey[]): void;
  /** Releases what the ports hold open: upstream connection pools, a shared limit store's connection. */
  close(): Promise<void>;
}
