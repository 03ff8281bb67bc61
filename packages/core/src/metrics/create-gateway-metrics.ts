import type { Catalogue, FallbackReason } from '../catalogue/catalogue-types.js';
import { fallbackReasons } from '../catalogue/catalogue-values.js';
import type {
  MetricsSink,
  RequestObservation,
  RequestRecord,
  UpstreamHealth,
} from '../ports/ports.js';
import {
  Counter,
  Gauge,
  Histogram,
  MetricsRegistry,
  type MetricDescription,
} from './metrics-registry.js';
import { rejectionReason } from './rejection-reason.js';

export interface GatewayMetricsOptions {
  catalogue: Catalogue;
  /** The operation ids a `route` label may take (the route table's); anything else is `other`. */
  operationIds: Iterable<string>;
  /** The configured upstream names an `upstream` label may take (`upstreams[].name`); anything else is `other`. */
  upstreamNames?: Iterable<string>;
  /** The key names given in the config (`keys[].name`) a `key` label may take; any other key is `unnamed`. */
  keyNames?: Iterable<string>;
  /** Key limits are shared through Redis (config `redis`): adds the `infergate_redis_connected` gauge. */
  redis?: boolean;
}

export interface GatewayMetrics extends MetricsSink {
  observe(observation: RequestObservation): void;
  streamStarted(): void;
  streamEnded(): void;
  upstreamError(kind: string, where?: { upstream?: string; model?: string }): void;
  retry(): void;
  fallback(from: string, to: string, reason: FallbackReason): void;
  endpointEjected(): void;
  limiterFallback(): void;
  redisConnected(connected: boolean): void;
  connectionOpened(): void;
  connectionClosed(): void;
  connectionRefused(): void;
  nameKeys(names: Iterable<string>): void;
  descriptorsExhausted(code: string): void;
  watchUpstreams(health: () => readonly UpstreamHealth[]): void;
  exposition(): string;
  /** Every metric this gateway exports, with its type, labels and help text. */
  describe(): MetricDescription[];
}

// Seconds. Time to first byte ranges from a cached catalogue answer (sub-ms) to a long first token
// (minutes, docs/design.md's 300 s first-event limit); totals reach a 30-minute stream.
const latencyBuckets = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800,
];

/**
 * Prometheus metrics of a gateway, as core's MetricsSink. Every label value is bounded: a route's
 * operation id, a catalogue model id, a configured upstream or key name (`unnamed` without one), else
 * `other`, or `none` where there is nothing; never a request id, a key or a raw model string. The key
 * label is on the counters only: on the histograms it would multiply every bucket by the number of
 * keys.
 */
export function createGatewayMetrics(options: GatewayMetricsOptions): GatewayMetrics {
  const operations = new Set(options.operationIds);
  const registry = new MetricsRegistry();
  const requests = registry.register(
    new Counter(
      'infergate_requests_total',
      'Requests answered, by route (operation id), model, status (499: the client went away), upstream name and key name.',
      ['route', 'model', 'status', 'upstream', 'key'],
    ),
  );
  const firstByte = registry.register(
    new Histogram(
      'infergate_time_to_first_byte_seconds',
      'From dispatch to the first body byte: the whole answer for JSON, the first event for a stream.',
      ['route', 'model', 'upstream'],
      latencyBuckets,
    ),
  );
  const duration = registry.register(
    new Histogram(
      'infergate_request_duration_seconds',
      'From dispatch to the last byte (the end of a stream).',
      ['route', 'model', 'upstream'],
      latencyBuckets,
    ),
  );
  const inputTokens = registry.register(
    new Counter(
      'infergate_input_tokens_total',
      'Input (prompt) tokens, by catalogue model and key name.',
      ['model', 'key'],
    ),
  );
  const outputTokens = registry.register(
    new Counter(
      'infergate_output_tokens_total',
      'Output (generated) tokens, by catalogue model and key name.',
      ['model', 'key'],
    ),
  );
  const cost = registry.register(
    new Counter(
      'infergate_cost_total',
      "What requests cost at the configured prices, by priced catalogue model, key name and currency (a -pe model's prompt rewrite under its text model).",
      ['model', 'key', 'currency'],
    ),
  );
  const activeStreams = registry.register(
    new Gauge('infergate_active_streams', 'SSE streams open now.'),
  );
  const upstreamErrors = registry.register(
    new Counter(
      'infergate_upstream_errors_total',
      'Failed upstream attempts, by kind (refused, timeout, reset, too_large, protocol, unavailable, http_5xx), upstream name and catalogue model.',
      ['kind', 'upstream', 'model'],
    ),
  );
  const retries = registry.register(
    new Counter(
      'infergate_upstream_retries_total',
      'Upstream attempts retried on another endpoint.',
    ),
  );
  const fallbacks = registry.register(
    new Counter(
      'infergate_fallbacks_total',
      `Requests for a virtual model that left catalogue model \`from\` for \`to\`, by reason (${fallbackReasons.join(', ')}).`,
      ['from', 'to', 'reason'],
    ),
  );
  const ejections = registry.register(
    new Counter(
      'infergate_upstream_ejections_total',
      'Upstream endpoints ejected from their pool after consecutive failures.',
    ),
  );
  const upstreamUp = registry.register(
    new Gauge(
      'infergate_upstream_up',
      'Per configured upstream: 1 while its latest outcome was not a failure to connect and it is not ejected, else 0. From real traffic, read when scraped.',
      ['upstream'],
    ),
  );
  let upstreamHealth: (() => readonly UpstreamHealth[]) | undefined;
  const rejected = registry.register(
    new Counter(
      'infergate_rejected_requests_total',
      'Requests refused by the gateway, by reason (auth, validation, size, overload, rate_limit, budget).',
      ['reason'],
    ),
  );
  const limiterFallbacks = registry.register(
    new Counter(
      'infergate_limiter_fallback_total',
      'Requests of limited or budgeted keys decided by local counting (each limit and budget / redis.replicas) because Redis was unreachable or over redis.budget_ms.',
    ),
  );
  const openConnections = registry.register(
    new Gauge('infergate_connections_open', 'Client connections open now on the main port.'),
  );
  const refusedConnections = registry.register(
    new Counter(
      'infergate_connections_refused_total',
      'Client connections closed at once because limits.max_connections were open.',
    ),
  );
  const descriptorsExhausted = registry.register(
    new Counter(
      'infergate_fd_exhausted_total',
      "Times the process ran out of file descriptors, by code (EMFILE: its own limit, ENFILE: the system's), once per episode; meanwhile new connections fail.",
      ['code'],
    ),
  );
  // Only where Redis is configured: a 0 elsewhere would read as an outage.
  const redisConnected =
    options.redis === true
      ? registry.register(
          new Gauge(
            'infergate_redis_connected',
            '1 while the connection to Redis (key limits shared by the replicas) is up; 0 while each replica counts its share locally, from the start until Redis first answers included.',
          ),
        )
      : undefined;
  const upstreamErrorKinds = new Set([
    'refused',
    'timeout',
    'reset',
    'too_large',
    'protocol',
    'unavailable',
    'http_5xx',
  ]);

  const routeLabel = (operationId: string): string =>
    operations.has(operationId) ? operationId : 'other';
  const modelLabel = (model: string | undefined): string =>
    model === undefined ? 'none' : options.catalogue.models.has(model) ? model : 'other';
  const upstreams = new Set(options.upstreamNames ?? []);
  const upstreamLabel = (name: string | undefined): string =>
    name === undefined ? 'none' : upstreams.has(name) ? name : 'other';
  const keys = new Set(options.keyNames ?? []);
  const keyLabel = (name: string | undefined): string =>
    name === undefined ? 'none' : keys.has(name) ? name : 'unnamed';
  // Counters start at zero for every reason and kind, so that rate() sees the first event.
  for (const reason of ['auth', 'validation', 'size', 'overload', 'rate_limit', 'budget'])
    rejected.inc([reason], 0);
  retries.inc([], 0);
  ejections.inc([], 0);
  limiterFallbacks.inc([], 0);
  refusedConnections.inc([], 0);
  for (const code of ['EMFILE', 'ENFILE']) descriptorsExhausted.inc([code], 0);

  const count = (
    observation: RequestRecord & { errorCode?: string },
    timing: RequestObservation | undefined,
  ): void => {
    const route = routeLabel(observation.operationId);
    const model = modelLabel(observation.model);
    const upstream = upstreamLabel(observation.endpoint);
    const key = keyLabel(observation.keyName);
    requests.inc([route, model, String(observation.status), upstream, key]);
    if (timing !== undefined) {
      firstByte.observe([route, model, upstream], timing.firstByteMs / 1000);
      duration.observe([route, model, upstream], timing.durationMs / 1000);
    }
    if (observation.inputTokens !== undefined && observation.inputTokens > 0)
      inputTokens.inc([model, key], observation.inputTokens);
    if (observation.outputTokens !== undefined && observation.outputTokens > 0)
      outputTokens.inc([model, key], observation.outputTokens);
    // Spec: a -pe model's prompt enhancement is charged to the text model that did it.
    const enhancement = observation.promptEnhancement;
    if (enhancement !== undefined) {
      const textModel = modelLabel(enhancement.model);
      if (enhancement.inputTokens > 0) inputTokens.inc([textModel, key], enhancement.inputTokens);
      if (enhancement.outputTokens > 0)
        outputTokens.inc([textModel, key], enhancement.outputTokens);
    }
    for (const part of observation.cost ?? [])
      cost.inc([modelLabel(part.model), key, part.currency], part.amount);
    const reason = rejectionReason(observation.status, observation.errorCode);
    if (reason !== undefined) rejected.inc([reason]);
  };

  return {
    observe: (observation) => count(observation, observation),
    // For callers that know only `record` (an app's own refusals before dispatch): counted, not timed.
    record: (record) => count(record, undefined),
    streamStarted: () => activeStreams.add(1),
    streamEnded: () => activeStreams.add(-1),
    upstreamError: (kind, where) =>
      upstreamErrors.inc([
        upstreamErrorKinds.has(kind) ? kind : 'other',
        upstreamLabel(where?.upstream),
        modelLabel(where?.model),
      ]),
    retry: () => retries.inc(),
    fallback: (from, to, reason) => fallbacks.inc([modelLabel(from), modelLabel(to), reason]),
    endpointEjected: () => ejections.inc(),
    limiterFallback: () => limiterFallbacks.inc(),
    redisConnected: (connected) => redisConnected?.set(connected ? 1 : 0),
    connectionOpened: () => openConnections.add(1),
    connectionClosed: () => openConnections.add(-1),
    connectionRefused: () => refusedConnections.inc(),
    // Names are only added: a revoked key's series stay, as counters must not go back.
    nameKeys: (names) => {
      for (const name of names) keys.add(name);
    },
    descriptorsExhausted: (code) =>
      descriptorsExhausted.inc([code === 'ENFILE' ? 'ENFILE' : 'EMFILE']),
    watchUpstreams: (health) => {
      upstreamHealth = health;
    },
    exposition: () => {
      for (const entry of upstreamHealth?.() ?? [])
        upstreamUp.set(entry.state === 'up' ? 1 : 0, [upstreamLabel(entry.upstream)]);
      return registry.render();
    },
    describe: () => registry.describe(),
  };
}
