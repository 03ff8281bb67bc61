import type { Catalogue } from '../catalogue/catalogue-types.js';
import type { UpstreamProtocol } from './protocol-names.js';

export interface PriceEntry {
  input_per_million: number;
  output_per_million: number;
  /** Image models: the price of each image answered, beside their tokens. */
  per_image?: number;
  currency: string;
}

export interface UpstreamConfig {
  name: string;
  /** Origin; the gateway appends the protocol's paths. */
  url: string;
  apiKey?: string;
  protocol: UpstreamProtocol;
  /** Catalogue id -> model name on this upstream. */
  models: Readonly<Record<string, string>>;
  /**
   * Served by the embedded local backend rather than over the network: the node-server mounts it
   * in-process; the edge app reaches it at a URL from its environment.
   */
  local?: boolean;
  /** false when the server offers no tokenizer route (config `tokenize: false`): /tokenize answers 501 without a call. */
  tokenize?: boolean;
}

/** A key's limits (config `keys[].limits`); an absent field is not limited. */
export interface KeyLimits {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
  /** Requests of the key running at once; a stream holds its slot until it closes. */
  concurrentRequests?: number;
}

/** A key's spending budget (config `keys[].budget`): `amount` in `currency` per calendar period in UTC. */
export interface KeyBudget {
  amount: number;
  currency: string;
  period: 'day' | 'week' | 'month';
}

export interface LimitsConfig {
  bodyJsonBytes: number;
  bodyImageBytes: number;
  /** Chat and responses bodies without their image data URLs: the text a model reads, far below the image limit. */
  bodyTextBytes: number;
  /** Concurrent requests admitted before 503 (0 = unlimited). */
  maxConcurrentRequests: number;
  /** Client connections open at once on a Node server's main port; more are closed at once (0 = unlimited). */
  maxConnections: number;
  /**
   * Total request-body bytes being read (and not yet handled) across all requests; a body that would
   * pass it is refused with 503 and Retry-After before it is read (0 = unlimited). At least the
   * largest body limit, so every allowed body can be served alone.
   */
  maxInflightBodyBytes: number;
  /** Output tokens a key's token limit reserves for a text request without max_tokens (default 1024). */
  defaultMaxTokens?: number;
}

/** The shared store of key limits (config `redis`); absent: each replica counts alone, in memory. */
export interface RedisConfig {
  /** `redis://` or `rediss://` URL, with credentials when the server needs them. */
  url: string;
  /** Longer than this for an admission decision, and the replica counts locally instead (default 20). */
  budgetMs: number;
  /** Replicas sharing the limits: while Redis is away each one applies 1/replicas of every limit (default 1). */
  replicas: number;
  /** A concurrency slot not renewed for this long is freed (a replica that died), default 30000. */
  slotTtlMs: number;
  /**
   * The share of each limit, in percent, that the replicas together may hold in unused leases (at least
   * one unit per replica): requests can be refused that much early, never admitted beyond the limit.
   * 0: every decision made in Redis, as exact as one replica (default 5).
   */
  accuracyPercent: number;
  /** A lease unused this long is given back, and leases are sized to last about this long (default 1000). */
  leaseMs: number;
}

export interface TimeoutsConfig {
  connectMs: number;
  firstEventMs: number;
  headersMs: number;
  idleMs: number;
  streamTotalMs: number;
  keepaliveMs: number;
  inboundHeadersMs: number;
  inboundRequestMs: number;
  /** Longest pause while a request body arrives: then 408, and the body's share of the in-flight budget is given back. */
  bodyIdleMs: number;
  keepAliveMs: number;
  shutdownGraceMs: number;
  /**
   * After SIGTERM, how long /readyz answers 503 while requests are still served normally, before the
   * graceful shutdown (shutdownGraceMs) starts; 0 starts it at once.
   */
  drainDelayMs: number;
}

export interface RetryConfig {
  attempts: number;
  budgetPercent: number;
  budgetFloor: number;
}

/** GET /metrics: on by default, opened by operator keys (`keys[].operator`) or by `key`. */
export interface MetricsConfig {
  enabled: boolean;
  /** The node-server serves /metrics on this port instead of the main one, without a key (a port for scrapers on a private network). */
  port?: number;
  /** A key that opens /metrics on the main port only (for the scraper), besides the operator keys. */
  key?: string;
}

/** GET /openapi.json and GET /docs: on by default, no key needed. */
export interface DocsConfig {
  enabled: boolean;
}

/** OpenTelemetry traces: off unless an OTLP endpoint is configured. */
export interface TracingConfig {
  /** OTLP/HTTP base URL (`/v1/traces` is appended), as OTEL_EXPORTER_OTLP_ENDPOINT. */
  otlpEndpoint?: string;
  serviceName: string;
}

/** CORS for browsers (config `server.cors`): off when absent. */
export interface CorsConfig {
  /** Allowed origins (`https://app.example.com`, scheme, host and port as browsers send them), or `*` for any. */
  origins: readonly string[];
}

/** The validated, defaulted configuration every handler sees. */
export interface GatewayConfig {
  server: { host: string; port: number; cors?: CorsConfig };
  catalogue: Catalogue;
  keys: readonly string[];
  masterUrl: string | undefined;
  upstreams: readonly UpstreamConfig[];
  /** With no upstreams configured, or when set explicitly, the embedded local backend serves unserved models. */
  localBackend: boolean;
  prices: Readonly<Record<string, PriceEntry>>;
  limits: LimitsConfig;
  timeouts: TimeoutsConfig;
  retries: RetryConfig;
  responses: { imageInputForm: 'image' | 'text' };
  /** Key limits shared by every replica through Redis; absent: counted per replica in memory. */
  redis?: RedisConfig;
  /** Absent in hand-built configurations: metrics and docs on, tracing off. */
  metrics?: MetricsConfig;
  docs?: DocsConfig;
  tracing?: TracingConfig;
}
