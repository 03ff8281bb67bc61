import type { z } from 'zod';
import { extendCatalogue } from './extend-catalogue.js';
import type { Catalogue, ModelKind } from '../catalogue/catalogue-types.js';
import { defaultCatalogue } from '../catalogue/default-catalogue.js';
import type { UpstreamProtocol } from './protocol-names.js';
import { formatParamPath } from '../schemas/parse-request-body.js';
import { ConfigError, configFileSchema } from './config-file-schema.js';
import type { ConfigFile, KeyConfig } from './config-file-schema.js';
import type {
  GatewayConfig,
  KeyBudget,
  KeyLimits,
  LimitsConfig,
  RedisConfig,
  RetryConfig,
  TimeoutsConfig,
  UpstreamConfig,
} from './gateway-config.js';
import { substituteEnv } from './substitute-env.js';

export { ConfigError, isConfigError } from './config-file-schema.js';

type Env = Readonly<Record<string, string | undefined>>;

/** An API key as the key store takes it, with its name, model allow-list and limits. */
export interface KeyEntry {
  key: string;
  name?: string;
  models?: readonly string[];
  limits?: KeyLimits;
  budget?: KeyBudget;
  /** Opens the operator endpoints (`/metrics`, `/upstreamz`) on the main port. */
  operator?: boolean;
}

function keyEntryOf(key: KeyConfig): KeyEntry {
  if (typeof key === 'string') return { key };
  const entry: KeyEntry = { key: key.key };
  if (key.name) entry.name = key.name;
  if (key.models) entry.models = key.models;
  if (key.operator === true) entry.operator = true;
  if (key.budget !== undefined) entry.budget = { ...key.budget };
  const concurrentRequests = key.limits?.concurrent_requests ?? key.limits?.max_concurrent_requests;
  const limits: KeyLimits = {
    ...(key.limits?.requests_per_minute !== undefined
      ? { requestsPerMinute: key.limits.requests_per_minute }
      : {}),
    ...(key.limits?.tokens_per_minute !== undefined
      ? { tokensPerMinute: key.limits.tokens_per_minute }
      : {}),
    ...(concurrentRequests !== undefined ? { concurrentRequests } : {}),
  };
  if (Object.keys(limits).length > 0) entry.limits = limits;
  return entry;
}

/** The `redis` section's defaults: budget 20 ms, 1 replica, slots freed after 30 s, leases within 5 % renewed every second. */
export const defaultRedis: Omit<RedisConfig, 'url'> = {
  budgetMs: 20,
  replicas: 1,
  slotTtlMs: 30_000,
  accuracyPercent: 5,
  leaseMs: 1_000,
};

function resolveRedis(file: ConfigFile): RedisConfig | undefined {
  if (file.redis === undefined) return undefined;
  const { redis } = file;
  return {
    url: redis.url,
    budgetMs: redis.budget_ms ?? defaultRedis.budgetMs,
    replicas: redis.replicas ?? defaultRedis.replicas,
    slotTtlMs: redis.slot_ttl_ms ?? defaultRedis.slotTtlMs,
    accuracyPercent: redis.accuracy_percent ?? defaultRedis.accuracyPercent,
    leaseMs: redis.lease_ms ?? defaultRedis.leaseMs,
  };
}

/**
 * GatewayConfig plus the keys with their names and model allow-lists (`keys` there holds only the key
 * strings); pass `keyEntries` to createKeyStore.
 */
export interface ResolvedGatewayConfig extends GatewayConfig {
  keyEntries: readonly KeyEntry[];
}

/** docs/design.md "Limits and timeouts". */
export const defaultLimits: LimitsConfig = {
  bodyJsonBytes: 2 * 1024 * 1024,
  bodyImageBytes: 100 * 1024 * 1024,
  // The largest context in the catalogue (1M tokens) at 8 bytes a token: twice what English, code or
  // CJK text take in UTF-8, with room for the JSON around it. Parsing and checking that much text
  // stays well within what one request may hold the event loop for; 100 MiB of text would not.
  bodyTextBytes: 8 * 1024 * 1024,
  // Unlimited by default: each upstream endpoint already bounds and queues its own connections (256),
  // and a gateway-wide cap that is too low turns a burst of healthy streams into 503s. Operators who
  // need a memory bound set it.
  maxConcurrentRequests: 0,
  // Idle keep-alive clients must not use up the process's file descriptors, which upstream
  // connections need too; above the cap a new connection is refused and counted.
  maxConnections: 4096,
  // Two maximal image bodies plus change: 20 clients sending 50 MiB each get some 503s with
  // Retry-After instead of a gigabyte of buffered bodies (fault-matrix row 22, bench scenario 6).
  maxInflightBodyBytes: 256 * 1024 * 1024,
};

/** Output tokens reserved for a text generation request that names no maximum (config `limits.default_max_tokens`). */
export const defaultMaxTokens = 1024;

export const defaultTimeouts: TimeoutsConfig = {
  connectMs: 5_000,
  firstEventMs: 300_000,
  headersMs: 600_000,
  idleMs: 60_000,
  streamTotalMs: 30 * 60_000,
  keepaliveMs: 15_000,
  inboundHeadersMs: 30_000,
  inboundRequestMs: 120_000,
  // A body that stops arriving holds its connection and its share of the in-flight body budget: a client
  // still sending a large body sends something every few seconds, even on a slow link.
  bodyIdleMs: 10_000,
  keepAliveMs: 72_000,
  shutdownGraceMs: 30_000,
  // Long enough for a Kubernetes Service or a load balancer's health check to take a replica out of
  // its pool after /readyz turns 503, so no new request reaches a closed listener.
  drainDelayMs: 5_000,
};

export const defaultRetries: RetryConfig = { attempts: 1, budgetPercent: 20, budgetFloor: 3 };

export const defaultServer = { host: '127.0.0.1', port: 8080 } as const;

/** The switches' defaults: metrics and docs on, the spec's answer form for image input, traces named infergate. */
export const defaultMetrics = { enabled: true } as const;
export const defaultDocs = { enabled: true } as const;
export const defaultResponses = { imageInputForm: 'image' } as const;
export const defaultTracing = { serviceName: 'infergate' } as const;

/**
 * Which upstream protocols can serve a model of each kind: those whose adapter (core's protocols/) has
 * the operations of the kind's endpoints, which protocol-adapters.test.ts holds this table to.
 */
export const protocolsForKind: Readonly<Record<ModelKind, readonly UpstreamProtocol[]>> = {
  text: ['openai'],
  embedding: ['openai', 'tei'],
  rerank: ['openai', 'tei', 'cohere'],
  'image-generation': ['images'],
  'image-edit': ['images'],
};

/** The protocol the embedded local backend speaks for each kind. */
const localProtocolForKind: Readonly<Record<ModelKind, UpstreamProtocol>> = {
  text: 'openai',
  embedding: 'openai',
  rerank: 'cohere',
  'image-generation': 'images',
  'image-edit': 'images',
};

/** Never dialled: apps mount the embedded backend in-process (`local: true`). */
export const localBackendUrl = 'http://local-backend.invalid';

function isMissing(root: unknown, path: readonly PropertyKey[]): boolean {
  let current = root;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment))
      return true;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current === undefined;
}

function issueToConfigError(issue: z.core.$ZodIssue, input: unknown): ConfigError {
  if (issue.code === 'unrecognized_keys')
    return new ConfigError(formatParamPath([...issue.path, issue.keys[0] ?? '']), 'unknown key');
  return new ConfigError(
    formatParamPath(issue.path),
    issue.path.length > 0 && isMissing(input, issue.path) ? 'required' : issue.message,
  );
}

function parseFile(file: unknown, env: Env): ConfigFile {
  if (file === undefined || file === null) return {};
  if (typeof file !== 'object' || Array.isArray(file))
    throw new ConfigError('', 'the configuration file must hold a mapping of settings');
  const substituted = substituteEnv(file, env);
  const result = configFileSchema.safeParse(substituted);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw issue
    ? issueToConfigError(issue, substituted)
    : new ConfigError('', 'the configuration is invalid');
}

function resolveServer(file: ConfigFile, env: Env): GatewayConfig['server'] {
  const host = env.HOST?.trim() || file.server?.host || defaultServer.host;
  const rawPort = env.PORT?.trim();
  let port = file.server?.port ?? defaultServer.port;
  if (rawPort) {
    if (!/^\d+$/.test(rawPort) || Number(rawPort) > 65535)
      throw new ConfigError('PORT', `expected a port 0..65535, got '${rawPort}'`);
    port = Number(rawPort);
  }
  const cors = file.server?.cors;
  // new URL().origin is how browsers spell an origin (lower-case host, default port dropped).
  return cors === undefined
    ? { host, port }
    : {
        host,
        port,
        cors: {
          origins: cors.origins.map((origin) => (origin === '*' ? origin : new URL(origin).origin)),
        },
      };
}

function resolveKeys(file: ConfigFile, env: Env): KeyEntry[] {
  const fromEnv = (env.INFERGATE_API_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key.length > 0);
  fromEnv.forEach((key) => {
    if (!/^[\x21-\x7e]+$/.test(key))
      throw new ConfigError('INFERGATE_API_KEYS', 'keys must be printable ASCII without spaces');
  });
  const entries: KeyEntry[] = [];
  const fromEnvAt = new Map<string, number>();
  for (const key of fromEnv) {
    if (fromEnvAt.has(key)) continue;
    fromEnvAt.set(key, entries.length);
    entries.push({ key });
  }
  // A key also in INFERGATE_API_KEYS takes the file's name, models, limits and budget: keeping the
  // bare one would drop them without a word. Twice in the file, it could mean either entry.
  const inFile = new Map<string, number>();
  (file.keys ?? []).forEach((key: KeyConfig, index) => {
    const entry = keyEntryOf(key);
    const earlier = inFile.get(entry.key);
    if (earlier !== undefined)
      throw new ConfigError(
        formatParamPath(['keys', index]),
        `the same key as keys[${earlier}]; list each key once`,
      );
    inFile.set(entry.key, index);
    const envIndex = fromEnvAt.get(entry.key);
    if (envIndex === undefined) entries.push(entry);
    else entries[envIndex] = entry;
  });
  return entries;
}

function checkKeyModels(
  entries: readonly KeyEntry[],
  file: ConfigFile,
  catalogue: Catalogue,
): void {
  (file.keys ?? []).forEach((key, index) => {
    if (typeof key === 'string') return;
    key.models?.forEach((model, modelIndex) => {
      if (!catalogue.models.has(model) && !catalogue.virtualModels.has(model))
        throw new ConfigError(
          formatParamPath(['keys', index, 'models', modelIndex]),
          `unknown model '${model}'`,
        );
    });
  });
  const names = new Set<string>();
  for (const entry of entries) {
    if (entry.name === undefined) continue;
    if (names.has(entry.name))
      throw new ConfigError('keys', `the key name '${entry.name}' is used twice`);
    names.add(entry.name);
  }
}

/**
 * A budget is charged only the costs in its currency: one that no price of the key's models uses would
 * never be charged, so it is refused rather than left to admit everything.
 */
function checkKeyBudgets(
  file: ConfigFile,
  catalogue: Catalogue,
  prices: GatewayConfig['prices'],
): void {
  (file.keys ?? []).forEach((key, index) => {
    if (typeof key === 'string' || key.budget === undefined) return;
    const allowed =
      key.models === undefined
        ? undefined
        : new Set(
            key.models.flatMap(
              (model) =>
                catalogue.virtualRoutes.get(model)?.models ?? [
                  catalogue.virtualModels.get(model) ?? model,
                ],
            ),
          );
    const currencies = new Set(
      Object.entries(prices)
        .filter(([model]) => allowed === undefined || allowed.has(model))
        .map(([, price]) => price.currency),
    );
    if (!currencies.has(key.budget.currency))
      throw new ConfigError(
        formatParamPath(['keys', index, 'budget', 'currency']),
        currencies.size === 0
          ? `no price is configured for ${key.models === undefined ? 'any model' : "the key's models"}, so nothing would be charged to this budget`
          : `no price of ${key.models === undefined ? 'any model' : "the key's models"} is in ${key.budget.currency} (prices use ${[...currencies].sort().join(', ')})`,
      );
  });
}

function resolveUpstreams(file: ConfigFile, catalogue: Catalogue): UpstreamConfig[] {
  const names = new Set<string>();
  const protocolOf = new Map<string, { protocol: UpstreamProtocol; upstream: string }>();
  const tokenizeOf = new Map<string, { tokenize: boolean; upstream: string }>();
  return (file.upstreams ?? []).map((upstream, index) => {
    const path = ['upstreams', index];
    if (names.has(upstream.name))
      throw new ConfigError(
        formatParamPath([...path, 'name']),
        `'${upstream.name}' names another upstream already`,
      );
    names.add(upstream.name);
    for (const modelId of Object.keys(upstream.models)) {
      const where = formatParamPath([...path, 'models', modelId]);
      const entry = catalogue.models.get(modelId);
      if (!entry) {
        const target = catalogue.virtualModels.get(modelId);
        throw new ConfigError(
          where,
          target
            ? `'${modelId}' is a virtual model; map its catalogue id '${target}'`
            : `unknown catalogue model '${modelId}'`,
        );
      }
      const allowed = protocolsForKind[entry.kind];
      if (!allowed.includes(upstream.protocol))
        throw new ConfigError(
          where,
          `${entry.kind} models cannot be served over protocol ${upstream.protocol}; expected one of ${allowed.join('|')}`,
        );
      // The upstream port load-balances a model over all its endpoints, so they must speak one protocol.
      const earlier = protocolOf.get(modelId);
      if (earlier && earlier.protocol !== upstream.protocol)
        throw new ConfigError(
          where,
          `already served over protocol ${earlier.protocol} by upstream '${earlier.upstream}'; every upstream of a model must speak the same protocol`,
        );
      protocolOf.set(modelId, { protocol: upstream.protocol, upstream: upstream.name });
      // Likewise /tokenize: a pool where some endpoints tokenize and others do not would answer by chance.
      const tokenize = upstream.tokenize ?? true;
      const earlierTokenize = tokenizeOf.get(modelId);
      if (
        entry.serves.includes('tokenize') &&
        earlierTokenize &&
        earlierTokenize.tokenize !== tokenize
      ) {
        throw new ConfigError(
          formatParamPath([...path, 'tokenize']),
          `upstream '${earlierTokenize.upstream}' also serves '${modelId}' with tokenize: ${earlierTokenize.tokenize}; every upstream of a model must agree`,
        );
      }
      tokenizeOf.set(modelId, { tokenize, upstream: upstream.name });
    }
    return {
      name: upstream.name,
      url: new URL(upstream.url).origin,
      ...(upstream.api_key ? { apiKey: upstream.api_key } : {}),
      protocol: upstream.protocol,
      models: { ...upstream.models },
      ...(upstream.tokenize === false ? { tokenize: false } : {}),
    };
  });
}

/** One local-backend entry per protocol, covering every catalogue model no configured upstream serves. */
function localUpstreams(
  catalogue: Catalogue,
  configured: readonly UpstreamConfig[],
): UpstreamConfig[] {
  const served = new Set(configured.flatMap((upstream) => Object.keys(upstream.models)));
  const byProtocol = new Map<UpstreamProtocol, Record<string, string>>();
  for (const entry of catalogue.models.values()) {
    if (served.has(entry.id)) continue;
    const protocol = localProtocolForKind[entry.kind];
    const models = byProtocol.get(protocol) ?? {};
    models[entry.id] = entry.id;
    byProtocol.set(protocol, models);
  }
  return [...byProtocol].map(([protocol, models]) => ({
    name: `local-backend-${protocol}`,
    url: localBackendUrl,
    protocol,
    models,
    local: true,
  }));
}

// A `-pe` image model first calls its text model: serving one without the other fails every request.
function checkPromptEnhancement(
  catalogue: Catalogue,
  configured: readonly UpstreamConfig[],
  all: readonly UpstreamConfig[],
): void {
  const served = new Set(all.flatMap((upstream) => Object.keys(upstream.models)));
  configured.forEach((upstream, index) => {
    for (const modelId of Object.keys(upstream.models)) {
      const textModel = catalogue.models.get(modelId)?.promptEnhancement?.textModel;
      if (textModel !== undefined && !served.has(textModel)) {
        throw new ConfigError(
          formatParamPath(['upstreams', index, 'models', modelId]),
          `its prompt enhancement runs on '${textModel}', which no upstream serves`,
        );
      }
    }
  });
}

function resolvePrices(file: ConfigFile, catalogue: Catalogue): GatewayConfig['prices'] {
  const prices: GatewayConfig['prices'] = {};
  for (const [id, price] of Object.entries(file.prices ?? {})) {
    if (!catalogue.models.has(id)) {
      const target = catalogue.virtualModels.get(id);
      throw new ConfigError(
        formatParamPath(['prices', id]),
        target
          ? `'${id}' is a virtual model; price its catalogue id '${target}'`
          : `unknown catalogue model '${id}'`,
      );
    }
    Object.defineProperty(prices, id, { value: { ...price }, enumerable: true });
  }
  return prices;
}

/**
 * The configuration every handler sees, from the parsed configuration file (or undefined) and the
 * environment: `${NAME}` substituted, validated (a ConfigError names the bad field), every default of
 * docs/design.md filled in. With no upstreams, or with `local_backend: true`, every catalogue model that no
 * configured upstream serves is given to the embedded local backend; an explicit `local_backend: false`
 * with no upstreams serves nothing (every model answers 503 model_not_configured).
 */
export function resolveGatewayConfig(file: unknown, env: Env): ResolvedGatewayConfig {
  const parsed = parseFile(file, env);
  const catalogue = extendCatalogue(defaultCatalogue, parsed.models, parsed.virtual_models);
  const keyEntries = resolveKeys(parsed, env);
  checkKeyModels(keyEntries, parsed, catalogue);
  const prices = resolvePrices(parsed, catalogue);
  checkKeyBudgets(parsed, catalogue, prices);
  const configured = resolveUpstreams(parsed, catalogue);
  const localBackend = parsed.local_backend ?? configured.length === 0;
  const upstreams = localBackend
    ? [...configured, ...localUpstreams(catalogue, configured)]
    : configured;
  checkPromptEnhancement(catalogue, configured, upstreams);
  const timeouts: TimeoutsConfig = {
    ...defaultTimeouts,
    ...definedOnly({
      connectMs: parsed.timeouts?.connect_ms,
      firstEventMs: parsed.timeouts?.first_event_ms,
      headersMs: parsed.timeouts?.headers_ms,
      idleMs: parsed.timeouts?.idle_ms,
      streamTotalMs: parsed.timeouts?.stream_total_ms,
      keepaliveMs: parsed.timeouts?.keepalive_ms,
      inboundHeadersMs: parsed.timeouts?.inbound_headers_ms,
      inboundRequestMs: parsed.timeouts?.inbound_request_ms,
      bodyIdleMs: parsed.timeouts?.body_idle_ms,
      keepAliveMs: parsed.timeouts?.keep_alive_ms,
      shutdownGraceMs: parsed.timeouts?.shutdown_grace_ms,
      drainDelayMs: parsed.timeouts?.drain_delay_ms,
    }),
  };
  // Node refuses to start a server whose headers timeout exceeds its request timeout.
  if (timeouts.inboundHeadersMs > timeouts.inboundRequestMs) {
    throw new ConfigError(
      'timeouts.inbound_headers_ms',
      `${timeouts.inboundHeadersMs} exceeds timeouts.inbound_request_ms (${timeouts.inboundRequestMs})`,
    );
  }
  const limits: LimitsConfig = {
    ...defaultLimits,
    ...definedOnly({
      bodyJsonBytes: parsed.limits?.body_json_bytes,
      bodyImageBytes: parsed.limits?.body_image_bytes,
      bodyTextBytes: parsed.limits?.body_text_bytes,
      maxConcurrentRequests: parsed.limits?.max_concurrent_requests,
      maxConnections: parsed.limits?.max_connections,
      defaultMaxTokens: parsed.limits?.default_max_tokens,
    }),
  };
  const largestBody = Math.max(limits.bodyJsonBytes, limits.bodyImageBytes);
  const inflightBody = parsed.limits?.max_inflight_body_bytes;
  if (inflightBody === undefined)
    limits.maxInflightBodyBytes = Math.max(defaultLimits.maxInflightBodyBytes, largestBody);
  else if (inflightBody > 0 && inflightBody < largestBody) {
    // A budget below one allowed body would refuse that body forever, not just under load.
    throw new ConfigError(
      'limits.max_inflight_body_bytes',
      `${inflightBody} is below the largest body limit (${largestBody}); use at least that, or 0 for no budget`,
    );
  } else limits.maxInflightBodyBytes = inflightBody;
  return {
    server: resolveServer(parsed, env),
    catalogue,
    keys: keyEntries.map((entry) => entry.key),
    keyEntries,
    masterUrl: parsed.master_url,
    upstreams,
    localBackend,
    prices,
    limits,
    timeouts,
    retries: {
      ...defaultRetries,
      ...definedOnly({
        attempts: parsed.retries?.attempts,
        budgetPercent: parsed.retries?.budget_percent,
        budgetFloor: parsed.retries?.budget_floor,
      }),
    },
    responses: {
      imageInputForm: parsed.responses?.image_input_form ?? defaultResponses.imageInputForm,
    },
    ...(parsed.redis !== undefined ? { redis: resolveRedis(parsed) } : {}),
    metrics: {
      enabled: parsed.metrics?.enabled ?? defaultMetrics.enabled,
      ...(parsed.metrics?.port !== undefined ? { port: parsed.metrics.port } : {}),
      ...(parsed.metrics?.key !== undefined ? { key: parsed.metrics.key } : {}),
    },
    docs: { enabled: parsed.docs?.enabled ?? defaultDocs.enabled },
    tracing: resolveTracing(parsed, env),
  };
}

// OpenTelemetry's standard variables apply when the file says nothing, as every OTel SDK reads them.
function resolveTracing(file: ConfigFile, env: Env): NonNullable<GatewayConfig['tracing']> {
  const otlpEndpoint =
    file.tracing?.otlp_endpoint ?? (env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || undefined);
  const serviceName =
    file.tracing?.service_name ?? (env.OTEL_SERVICE_NAME?.trim() || defaultTracing.serviceName);
  return otlpEndpoint === undefined ? { serviceName } : { otlpEndpoint, serviceName };
}

function definedOnly<T extends Record<string, number | undefined>>(
  values: T,
): { [K in keyof T]?: number } {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: number;
  };
}
