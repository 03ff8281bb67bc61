import { z } from 'zod';

const brand = Symbol.for('infergate.config-error');

/**
 * A configuration the gateway refuses to start with. `path` names the bad field the way the file spells
 * it (`upstreams[1].protocol`), or the environment variable (`PORT`) when the value came from there.
 *
 * It lives beside the schema rather than in resolve-gateway-config.ts (which re-exports it) so that
 * substitute-env.ts and extend-catalogue.ts can throw it without an import cycle.
 */
export class ConfigError extends Error {
  readonly [brand] = true;
  readonly path: string;

  constructor(path: string, detail: string) {
    super(path.length > 0 ? `${path}: ${detail}` : detail);
    this.name = 'ConfigError';
    this.path = path;
  }
}

/** True for a ConfigError from any installed copy of core. */
export function isConfigError(value: unknown): value is ConfigError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}

export const modelKinds = ['text', 'embedding', 'rerank', 'image-generation', 'image-edit'] as const;
export const endpointNames = ['responses', 'chat', 'embeddings', 'compat-embed', 'compat-rerank', 'image-generations', 'image-edits', 'tokenize'] as const;
export const upstreamProtocols = ['openai', 'tei', 'cohere', 'images'] as const;
const reasoningEfforts = ['low', 'high', 'max'] as const;

function oneOf<const Values extends readonly [string, ...string[]]>(values: Values) {
  return z.enum(values, { error: `expected one of ${values.join('|')}` });
}

// `${NAME}` substitution can only produce strings, so numbers and booleans also accept their
// spelling as a string: `port: "${PORT}"` must work.
const integer = z.union([z.number(), z.string().regex(/^-?\d+$/).transform(Number)], { error: 'expected an integer' }).pipe(z.number().int('expected an integer').safe('expected an integer'));
const positiveInteger = integer.pipe(z.number().positive('expected a positive integer'));
const nonNegativeInteger = integer.pipe(z.number().nonnegative('expected an integer >= 0'));
const boolean = z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')], { error: 'expected true or false' });
const price = z.union([z.number(), z.string().regex(/^\d+(?:\.\d+)?$/).transform(Number)], { error: 'expected a number' }).pipe(z.number().nonnegative('expected a number >= 0').finite());
const nonEmptyString = z.string({ error: 'expected a string' }).min(1, 'must not be empty');

function httpUrl(what: string) {
  return nonEmptyString.refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
    } catch {
      return false;
    }
  }, `expected an http(s) ${what} without credentials`);
}

// The gateway appends each protocol's paths, so an upstream is an origin; a path would be silently lost.
const originUrl = httpUrl('origin').refine((value) => {
  try {
    const url = new URL(value);
    return url.pathname === '/' && url.search === '' && url.hash === '';
  } catch {
    return false;
  }
}, 'expected an origin (scheme, host and port; no path, query or fragment)');

// Printable ASCII without spaces, so that every configured key can arrive as `Authorization: Bearer <key>`.
const apiKey = nonEmptyString.regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

export const keyLimitsConfigSchema = z.strictObject({
  requests_per_minute: positiveInteger.optional(),
  tokens_per_minute: positiveInteger.optional(),
  // Issue 11 spells it concurrent_requests; max_concurrent_requests (the first spelling) stays accepted.
  concurrent_requests: positiveInteger.optional(),
  max_concurrent_requests: positiveInteger.optional(),
}).refine((limits) => limits.concurrent_requests === undefined || limits.max_concurrent_requests === undefined, 'set concurrent_requests or max_concurrent_requests, not both');

const redisUrl = nonEmptyString.refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === 'redis:' || url.protocol === 'rediss:';
  } catch {
    return false;
  }
}, 'expected a redis:// or rediss:// URL');

export const keyConfigSchema = z.union([
  apiKey,
  z.strictObject({
    key: apiKey,
    name: nonEmptyString.optional(),
    models: z.array(nonEmptyString).optional(),
    limits: keyLimitsConfigSchema.optional(),
  }),
], { error: 'expected a key string or { key, name, models, limits }' });
export type KeyConfig = z.output<typeof keyConfigSchema>;

export const upstreamConfigSchema = z.strictObject({
  name: nonEmptyString,
  url: originUrl,
  api_key: nonEmptyString.optional(),
  protocol: oneOf(upstreamProtocols),
  models: z.record(nonEmptyString, nonEmptyString).refine((models) => Object.keys(models).length > 0, 'expected at least one catalogue model'),
});
export type UpstreamConfigFile = z.output<typeof upstreamConfigSchema>;

export const modelConfigSchema = z.strictObject({
  kind: oneOf(modelKinds).optional(),
  description: z.string().optional(),
  context: positiveInteger.optional(),
  serves: z.array(oneOf(endpointNames)).min(1, 'expected at least one endpoint').optional(),
  modalities: z.array(oneOf(['text', 'image'])).min(1, 'expected at least one modality').optional(),
  /** A fixed dimension, or the allowed list (default: the largest). */
  dimensions: z.union([positiveInteger, z.strictObject({ allowed: z.array(positiveInteger).min(1), default: positiveInteger.optional() })], {
    error: 'expected a positive integer or { allowed: [...], default }',
  }).optional(),
  thinking: boolean.optional(),
  backend_enforced_sampling: boolean.optional(),
  /** The beta53 routing settings: `effort` configurable (low|high|max, default max) or locked to one value. */
  reasoning: z.strictObject({ clear_thinking: boolean, effort: oneOf(['configurable', ...reasoningEfforts]) }).optional(),
  prompt_enhancement: z.strictObject({ text_model: nonEmptyString }).optional(),
});
export type ModelConfig = z.output<typeof modelConfigSchema>;

export const priceConfigSchema = z.strictObject({
  input_per_million: price,
  output_per_million: price,
  currency: z.string().regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code such as USD'),
});

export const configFileSchema = z.strictObject({
  server: z.strictObject({
    host: nonEmptyString.optional(),
    port: integer.pipe(z.number().min(0).max(65535, 'expected a port 0..65535')).optional(),
  }).optional(),
  keys: z.array(keyConfigSchema).optional(),
  master_url: httpUrl('URL').optional(),
  upstreams: z.array(upstreamConfigSchema).optional(),
  local_backend: boolean.optional(),
  models: z.record(nonEmptyString, modelConfigSchema).optional(),
  virtual_models: z.record(nonEmptyString, nonEmptyString).optional(),
  prices: z.record(nonEmptyString, priceConfigSchema).optional(),
  limits: z.strictObject({
    body_json_bytes: positiveInteger.optional(),
    body_image_bytes: positiveInteger.optional(),
    max_concurrent_requests: nonNegativeInteger.optional(),
    max_inflight_body_bytes: nonNegativeInteger.optional(),
    default_max_tokens: positiveInteger.optional(),
  }).optional(),
  redis: z.strictObject({
    url: redisUrl,
    budget_ms: positiveInteger.optional(),
    replicas: positiveInteger.optional(),
    slot_ttl_ms: positiveInteger.optional(),
    accuracy_percent: integer.pipe(z.number().min(0).max(100, 'expected a percentage 0..100')).optional(),
    lease_ms: positiveInteger.optional(),
  }).optional(),
  timeouts: z.strictObject({
    connect_ms: positiveInteger.optional(),
    first_event_ms: positiveInteger.optional(),
    headers_ms: positiveInteger.optional(),
    idle_ms: positiveInteger.optional(),
    stream_total_ms: positiveInteger.optional(),
    keepalive_ms: positiveInteger.optional(),
    inbound_headers_ms: positiveInteger.optional(),
    inbound_request_ms: positiveInteger.optional(),
    keep_alive_ms: positiveInteger.optional(),
    shutdown_grace_ms: nonNegativeInteger.optional(),
  }).optional(),
  retries: z.strictObject({
    attempts: nonNegativeInteger.optional(),
    budget_percent: integer.pipe(z.number().min(0).max(100, 'expected a percentage 0..100')).optional(),
    budget_floor: nonNegativeInteger.optional(),
  }).optional(),
  responses: z.strictObject({ image_input_form: oneOf(['image', 'text']).optional() }).optional(),
  metrics: z.strictObject({
    enabled: boolean.optional(),
    port: integer.pipe(z.number().min(0).max(65535, 'expected a port 0..65535')).optional(),
    key: apiKey.optional(),
  }).optional(),
  docs: z.strictObject({ enabled: boolean.optional() }).optional(),
  tracing: z.strictObject({ otlp_endpoint: httpUrl('URL').optional(), service_name: nonEmptyString.optional() }).optional(),
});

/** The configuration file after `${NAME}` substitution and validation, still in the file's snake_case. */
export type ConfigFile = z.output<typeof configFileSchema>;
