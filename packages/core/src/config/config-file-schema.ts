import { z } from 'zod';
import { fallbackReasons, modelKinds, reasoningEfforts } from '../catalogue/catalogue-values.js';
import { endpointRoutes, type Endpoint } from '../catalogue/route-paths.js';
import { upstreamProtocols } from './protocol-names.js';

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
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[brand] === true
  );
}

const endpointNames = Object.keys(endpointRoutes) as [Endpoint, ...Endpoint[]];

function oneOf<const Values extends readonly [string, ...string[]]>(values: Values) {
  return z.enum(values, { error: `expected one of ${values.join('|')}` });
}

// `${NAME}` substitution can only produce strings, so numbers and booleans also accept their
// spelling as a string: `port: "${PORT}"` must work. Each piped output schema repeats `.int()` (never
// failing after `integer`) so that the JSON Schema of the output, which renders the configuration
// reference, says integer rather than number; `.meta()` descriptions below only feed that reference.
const integer = z
  .union(
    [
      z.number(),
      z
        .string()
        .regex(/^-?\d+$/)
        .transform(Number),
    ],
    { error: 'expected an integer' },
  )
  .pipe(z.number().int('expected an integer').safe('expected an integer'));
const positiveInteger = integer.pipe(z.number().int().positive('expected a positive integer'));
const nonNegativeInteger = integer.pipe(z.number().int().nonnegative('expected an integer >= 0'));
const portNumber = integer.pipe(z.number().int().min(0).max(65535, 'expected a port 0..65535'));
const boolean = z
  .union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')], {
    error: 'expected true or false',
  })
  .pipe(z.boolean());
const nonNegativeNumber = z
  .union(
    [
      z.number(),
      z
        .string()
        .regex(/^\d+(?:\.\d+)?$/)
        .transform(Number),
    ],
    { error: 'expected a number' },
  )
  .pipe(z.number().nonnegative('expected a number >= 0').finite());
const nonEmptyString = z.string({ error: 'expected a string' }).min(1, 'must not be empty');

function httpUrl(what: string) {
  return nonEmptyString.refine((value) => {
    try {
      const url = new URL(value);
      return (
        (url.protocol === 'http:' || url.protocol === 'https:') &&
        url.username === '' &&
        url.password === ''
      );
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

// A browser's Origin header is scheme, host and port exactly; `*` allows every origin.
const corsOrigin = z.union([z.literal('*'), originUrl], {
  error: "expected '*' or an origin such as https://app.example.com",
});

// Printable ASCII without spaces, so that every configured key can arrive as `Authorization: Bearer <key>`.
const apiKey = nonEmptyString.regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

export const keyLimitsConfigSchema = z
  .strictObject({
    requests_per_minute: positiveInteger.optional().meta({
      description:
        'Requests this key may start per one-minute window; over it, 429 with `Retry-After`.',
    }),
    tokens_per_minute: positiveInteger.optional().meta({
      description:
        "Tokens (input plus output) this key may use per one-minute window. Reserved before the model is called (about a quarter of the request's characters plus its `max_tokens`, or `limits.default_max_tokens`) and corrected to the real usage afterwards.",
    }),
    // The documented spelling is concurrent_requests; max_concurrent_requests (the first spelling) stays accepted.
    concurrent_requests: positiveInteger.optional().meta({
      description:
        'Requests of this key running at once; a slot is held until the response or stream ends.',
    }),
    max_concurrent_requests: positiveInteger.optional().meta({
      description:
        'Older spelling of `concurrent_requests`, still accepted; set one or the other, not both.',
    }),
  })
  .refine(
    (limits) =>
      limits.concurrent_requests === undefined || limits.max_concurrent_requests === undefined,
    'set concurrent_requests or max_concurrent_requests, not both',
  );

export const budgetPeriods = ['day', 'week', 'month'] as const;

export const keyBudgetConfigSchema = z.strictObject({
  amount: nonNegativeNumber
    .pipe(z.number().positive('expected a number > 0'))
    .meta({ description: 'What this key may spend per period, in `currency`.' }),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code such as USD')
    .meta({
      description:
        'ISO 4217 code; at least one price of a model the key may use must be in it. Models priced in another currency, or not priced, do not count.',
    }),
  // A refinement before the enum: a union's enum error would lose the field's path (see keyConfigSchema).
  period: z
    .string({ error: 'expected day, week or month' })
    .refine(
      (value) => (budgetPeriods as readonly string[]).includes(value),
      'expected day, week or month',
    )
    .pipe(z.enum(budgetPeriods))
    .meta({
      description:
        'Calendar period in UTC: a day from midnight, a week from Monday, a month from its first day.',
    }),
});

const redisUrl = nonEmptyString.refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === 'redis:' || url.protocol === 'rediss:';
  } catch {
    return false;
  }
}, 'expected a redis:// or rediss:// URL');

export const keyConfigSchema = z.union(
  [
    apiKey.meta({ description: 'A key alone: every model, no limits.' }),
    z.strictObject({
      key: apiKey.meta({
        description:
          'The key clients send as `Authorization: Bearer <key>` (printable ASCII, no spaces).',
      }),
      name: nonEmptyString.optional().meta({
        description:
          'Shown in logs and metrics instead of the key (which never appears anywhere); names must be unique.',
      }),
      models: z.array(nonEmptyString).optional().meta({
        description:
          'Allow-list of catalogue or virtual model ids; other models answer 403. Absent: every model.',
      }),
      limits: keyLimitsConfigSchema
        .optional()
        .meta({ description: 'Per-key rate and concurrency limits; absent: unlimited.' }),
      budget: keyBudgetConfigSchema.optional().meta({
        description:
          "What the key may spend per calendar period at the configured `prices`; over it, 429 `budget_exceeded` until the period ends. Each request's estimated cost is reserved before the model is called and corrected to its real cost afterwards.",
      }),
      operator: boolean.optional().meta({
        description:
          'Whether this key also opens the operator endpoints on the main port (`GET /metrics`, `GET /upstreamz`); other keys get 403 `operator_key_required` there. Absent: `false`.',
      }),
    }),
  ],
  { error: 'expected a key string or { key, name, models, limits, budget, operator }' },
);
export type KeyConfig = z.output<typeof keyConfigSchema>;

export const upstreamConfigSchema = z.strictObject({
  name: nonEmptyString.meta({
    description: 'Unique name, used in logs and metrics; never sent to clients.',
  }),
  url: originUrl.meta({
    description:
      "Origin of the model server (scheme, host, port; no path): the gateway appends each protocol's paths.",
  }),
  api_key: nonEmptyString.optional().meta({
    description: 'Sent to the model server as `Authorization: Bearer <api_key>`; never logged.',
  }),
  protocol: oneOf(upstreamProtocols).meta({
    description:
      'What the server speaks: `openai` (vLLM or any OpenAI-compatible server), `tei` (text-embeddings-inference), `cohere` (Cohere-style v2 rerank), `images` (OpenAI-style images).',
  }),
  models: z
    .record(nonEmptyString, nonEmptyString)
    .refine((models) => Object.keys(models).length > 0, 'expected at least one catalogue model')
    .meta({
      description:
        'Catalogue model id -> the model name this server knows it by. Two upstreams serving one model are load-balanced. A model not in the catalogue needs a `models:` entry first.',
    }),
  tokenize: boolean.optional().meta({
    description:
      '`false`: this server has no tokenizer route, so `/tokenize` answers 501 for its models without calling it.',
  }),
});
export type UpstreamConfigFile = z.output<typeof upstreamConfigSchema>;

export const modelConfigSchema = z.strictObject({
  kind: oneOf(modelKinds).optional().meta({
    description:
      'What the model is for; required for a model that is not in the catalogue, and decides which endpoints it may serve.',
  }),
  description: z.string().optional().meta({ description: 'Shown in `GET /v1/models`.' }),
  context: positiveInteger.optional().meta({
    description:
      'Context window in tokens, reported by `/tokenize` as `max_model_len`; required for new text and embedding models.',
  }),
  serves: z.array(oneOf(endpointNames)).min(1, 'expected at least one endpoint').optional().meta({
    description:
      'Endpoints the model may be used on; elsewhere it answers 400 `model_not_supported`. Default for a new model: text `[responses, chat, tokenize]`, embedding `[embeddings, tokenize]`, rerank `[compat-rerank]`, images `[image-generations]` or `[image-edits]`.',
  }),
  modalities: z
    .array(oneOf(['text', 'image']))
    .min(1, 'expected at least one modality')
    .optional()
    .meta({
      description:
        'Input it accepts; `image` lets text models take `input_image` / `image_url` parts. Default for a new model: `[text]` (`[text, image]` for image-edit).',
    }),
  dimensions: z
    .union(
      [
        positiveInteger.meta({ description: 'A fixed dimension.' }),
        z.strictObject({
          allowed: z
            .array(positiveInteger)
            .min(1)
            .meta({ description: 'Dimensions a request may ask for.' }),
          default: positiveInteger.optional().meta({
            description: 'Dimension when the request names none; default: the largest allowed.',
          }),
        }),
      ],
      {
        error: 'expected a positive integer or { allowed: [...], default }',
      },
    )
    .optional()
    .meta({
      description:
        'Embedding models only (required for new ones): a fixed dimension, or the allowed list.',
    }),
  thinking: boolean
    .optional()
    .meta({ description: 'The model thinks (reasoning output); reported in the catalogue.' }),
  backend_enforced_sampling: boolean.optional().meta({
    description:
      'The server applies its own sampling: user sampling parameters are dropped before the call and named in `x-infergate-ignored-params`.',
  }),
  reasoning: z
    .strictObject({
      clear_thinking: boolean.meta({
        description:
          '`true` hides the thinking from clients, `false` exposes it; sent upstream as `chat_template_kwargs.clear_thinking`.',
      }),
      effort: oneOf(['configurable', ...reasoningEfforts]).meta({
        description: `\`configurable\`: clients may send \`reasoning_effort\` ${reasoningEfforts.join('|')} (default max); a level: locked to it.`,
      }),
    })
    .optional()
    .meta({
      description:
        "Text models only: fixed routing settings like the beta53 variants'. Absent: `reasoning_effort` is refused with 400.",
    }),
  prompt_enhancement: z
    .strictObject({
      text_model: nonEmptyString.meta({
        description:
          'Catalogue text model that rewrites the prompt first; its tokens are charged to it.',
      }),
    })
    .optional()
    .meta({
      description:
        'Image models only: rewrite the prompt with a text model before generating (like the `-pe` models).',
    }),
});
export type ModelConfig = z.output<typeof modelConfigSchema>;

export const priceConfigSchema = z.strictObject({
  input_per_million: nonNegativeNumber.meta({ description: 'Price of one million input tokens.' }),
  output_per_million: nonNegativeNumber.meta({
    description: 'Price of one million output tokens.',
  }),
  per_image: nonNegativeNumber
    .optional()
    .meta({ description: 'Image models: the price of each image answered, beside its tokens.' }),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code such as USD')
    .meta({ description: 'ISO 4217 code, such as `USD`.' }),
});

export const virtualModelConfigSchema = z.union(
  [
    nonEmptyString.meta({ description: 'The catalogue model id the virtual id stands for.' }),
    z.strictObject({
      models: z.array(nonEmptyString).min(1, 'name at least one catalogue model').meta({
        description:
          'Catalogue model ids of one kind, tried in this order: the next is called when the previous failed in one of the `on` ways before the first byte reached the client.',
      }),
      on: z
        .array(oneOf(fallbackReasons))
        .min(1, 'name at least one failure, or leave `on` out for the default')
        .optional()
        .meta({
          description:
            'The failures that move a request to the next model. Absent: connection, timeout, rate_limited, unavailable, model_not_configured.',
        }),
      weights: z.record(nonEmptyString, nonNegativeNumber).optional().meta({
        description:
          'Weights over the first attempt, by model id of `models` (a canary: `{a: 90, b: 10}`); the models left follow in list order. Absent: the first model is always tried first.',
      }),
    }),
  ],
  { error: 'expected a catalogue model id or { models, on, weights }' },
);
export type VirtualModelConfig = z.output<typeof virtualModelConfigSchema>;

export const configFileSchema = z.strictObject({
  server: z
    .strictObject({
      host: nonEmptyString.optional().meta({
        description:
          'Address to listen on; `0.0.0.0` for every interface. The `HOST` variable wins over it.',
      }),
      port: portNumber.optional().meta({
        description: 'Port to listen on; `0` picks a free one. The `PORT` variable wins over it.',
      }),
      cors: z
        .strictObject({
          origins: z.array(corsOrigin).meta({
            description:
              'Origins (`https://app.example.com`) whose browser scripts may call the API, or `*` for any. Preflight requests need no key.',
          }),
        })
        .optional()
        .meta({
          description: 'CORS for the SDK and other browser code; off when absent.',
          examples: [{ origins: ['https://app.example.com'] }],
        }),
    })
    .optional()
    .meta({
      description: 'Where the node-server listens.',
      examples: [{ host: '0.0.0.0', port: 8080 }],
    }),
  keys: z
    .array(keyConfigSchema)
    .optional()
    .meta({
      description:
        'Client API keys, added to those of `INFERGATE_API_KEYS`. Each is a string, or a mapping with a name, a model allow-list, limits, a budget and the operator flag. With no key anywhere, one is generated at start and printed once.',
      examples: [
        [
          '${TEAM_A_KEY}',
          {
            key: '${TEAM_B_KEY}',
            name: 'team-b',
            models: ['general-std', 'gamma-m3'],
            limits: {
              requests_per_minute: 600,
              tokens_per_minute: 200000,
              concurrent_requests: 20,
            },
          },
          { key: '${OPS_KEY}', name: 'ops', operator: true },
        ],
      ],
    }),
  master_url: httpUrl('URL')
    .optional()
    .meta({
      description:
        "The address of your organisation's central (master) service, which serves what a gateway does not: documents and usage (`POST /document`, `GET /usage`, `GET /usage/history`), called there with the master key. The gateway never calls it; those endpoints answer 404 `use_master_endpoint` with this address in the message.",
      examples: ['https://master.example.com'],
    }),
  upstreams: z
    .array(upstreamConfigSchema)
    .optional()
    .meta({
      description:
        'The model servers behind the gateway and which catalogue models each serves. With none, the embedded local backend serves every model.',
      examples: [
        [
          {
            name: 'text-a',
            url: 'http://10.0.0.5:8000',
            api_key: '${VLLM_KEY}',
            protocol: 'openai',
            models: { 'alpha36-35b-a3b-instruct': 'Qwen/Qwen3-30B-A3B' },
          },
        ],
      ],
    }),
  local_backend: boolean.optional().meta({
    description:
      'Whether the embedded local backend serves the catalogue models no upstream serves. Once any upstream is configured it serves nothing unless this is `true`, and an unserved model answers 503 `model_not_configured`.',
    examples: [true],
  }),
  models: z
    .record(nonEmptyString, modelConfigSchema)
    .optional()
    .meta({
      description:
        'Catalogue entries to add (your own model names) or fields to change on existing ones, by model id.',
      examples: [
        {
          'tiny-llama': {
            kind: 'text',
            context: 8192,
            description: 'TinyLlama 1.1B on our own server',
          },
        },
      ],
    }),
  virtual_models: z
    .record(nonEmptyString, virtualModelConfigSchema)
    .optional()
    .meta({
      description:
        'Virtual model id -> catalogue model id, or an ordered list of catalogue models to fall back through: added to the default virtual models, or re-pointing one of them. Accepted wherever a model id is.',
      examples: [
        {
          'my-default': 'alpha36-35b-a3b-instruct',
          'coding-max': {
            models: ['beta53-flash-agent-low', 'alpha35-122b-a10b-thinking-coding'],
            on: ['connection', 'timeout', 'rate_limited', 'unavailable'],
          },
        },
      ],
    }),
  prices: z
    .record(nonEmptyString, priceConfigSchema)
    .optional()
    .meta({
      description: 'What `GET /pricing` reports, by catalogue model id.',
      examples: [
        {
          'alpha36-35b-a3b-instruct': {
            input_per_million: 0.1,
            output_per_million: 0.4,
            currency: 'USD',
          },
        },
      ],
    }),
  limits: z
    .strictObject({
      body_json_bytes: positiveInteger.optional().meta({
        description:
          'Largest request body on routes without images (embeddings, text-only compat embed, rerank, tokenize, image generation); over it, 413.',
      }),
      body_image_bytes: positiveInteger.optional().meta({
        description:
          'Largest request body on routes that can carry base64 images (chat, responses, image edits, compat embed with images); over it, 413.',
      }),
      body_text_bytes: positiveInteger.optional().meta({
        description:
          'Largest chat or responses body once its image data URLs are left out (what the model reads as text); over it, 413 before the body is parsed. Sized for the largest context in the catalogue (1M tokens at 8 bytes each); raise it for clients that send longer text, such as non-ASCII text written as `\\u` escapes.',
      }),
      max_concurrent_requests: nonNegativeInteger.optional().meta({
        description:
          'Requests admitted at once across the gateway before 503 with `Retry-After` (`0`: unlimited).',
      }),
      max_connections: nonNegativeInteger.optional().meta({
        description:
          'Client connections open at once on the main port (Node servers); above it each new connection is closed at once and counted in `infergate_connections_refused_total` (`0`: unlimited). Keep it below the open-file limit (`ulimit -n`), which upstream connections share.',
      }),
      max_inflight_body_bytes: nonNegativeInteger.optional().meta({
        description:
          'Request-body bytes being read at once across the gateway; a body that would pass it gets 503 with `Retry-After` before it is read (`0`: unlimited). At least the largest body limit. Default: 256 MiB, or the largest body limit if that is larger.',
      }),
      default_max_tokens: positiveInteger.optional().meta({
        description:
          "Output tokens a key's `tokens_per_minute` reserves for a text request without `max_tokens`.",
      }),
    })
    .optional()
    .meta({
      description:
        'Gateway-wide limits on bodies and concurrency (per-key limits are under `keys`).',
      examples: [{ body_image_bytes: 52428800, max_concurrent_requests: 512 }],
    }),
  redis: z
    .strictObject({
      url: redisUrl.meta({
        description: '`redis://` or `rediss://` URL, with credentials if the server needs them.',
      }),
      budget_ms: positiveInteger.optional().meta({
        description:
          'Longest wait for Redis on one admission decision; slower, and the replica counts locally with its share of each limit.',
      }),
      replicas: positiveInteger.optional().meta({
        description:
          'How many replicas share the limits: while Redis is away each applies 1/replicas of every limit.',
      }),
      slot_ttl_ms: positiveInteger.optional().meta({
        description:
          'A concurrency slot not renewed for this long is freed (the replica holding it died).',
      }),
      accuracy_percent: integer
        .pipe(z.number().min(0).max(100, 'expected a percentage 0..100'))
        .optional()
        .meta({
          description:
            'How far admitted requests and tokens may run past a limit across the replicas, in percent of the limit (at least one lease per replica for small limits). Each replica takes leases of that size from Redis and spends them locally; `0`: every decision in Redis, exact.',
        }),
      lease_ms: positiveInteger.optional().meta({
        description:
          "How long a lease taken from Redis runs before it is renewed or given back; its size follows the key's use over this time.",
      }),
    })
    .optional()
    .meta({
      description:
        'Shares per-key limits across replicas. Absent: each replica counts alone, in memory.',
      examples: [{ url: 'redis://10.0.0.9:6379', replicas: 3 }],
    }),
  timeouts: z
    .strictObject({
      connect_ms: positiveInteger.optional().meta({
        description:
          'Connecting to a model server; then one retry on another endpoint, else 502 or 504.',
      }),
      first_event_ms: positiveInteger.optional().meta({
        description:
          "Streaming: wait for the model server's first event; else 504 before any byte is sent.",
      }),
      headers_ms: positiveInteger.optional().meta({
        description:
          "Not streaming: wait for the model server's answer headers (they come after the whole completion); else 504.",
      }),
      idle_ms: positiveInteger.optional().meta({
        description:
          'Streaming: longest silence between two events; the stream ends with an error event.',
      }),
      stream_total_ms: positiveInteger
        .optional()
        .meta({ description: 'Longest stream; then it ends with an error event.' }),
      keepalive_ms: positiveInteger.optional().meta({
        description:
          'Interval of the `: keepalive` comment sent to a streaming client while the model is silent.',
      }),
      inbound_headers_ms: positiveInteger.optional().meta({
        description: 'Time a client has to send its request headers; at most `inbound_request_ms`.',
      }),
      inbound_request_ms: positiveInteger.optional().meta({
        description:
          'Time a client has to send its whole request; else 408 and the connection is closed.',
      }),
      body_idle_ms: positiveInteger.optional().meta({
        description:
          "Longest pause while a client sends a request body (Node: the node-server and the edge app on Node); then 408, the connection is closed and the body's share of `limits.max_inflight_body_bytes` is given back at once.",
      }),
      keep_alive_ms: positiveInteger
        .optional()
        .meta({ description: 'How long an idle client connection is kept open.' }),
      shutdown_grace_ms: nonNegativeInteger.optional().meta({
        description:
          'On SIGTERM or SIGINT, time running requests and streams get to finish before they are cut.',
      }),
      drain_delay_ms: nonNegativeInteger.optional().meta({
        description:
          'On SIGTERM, time `/readyz` answers 503 while requests are still served, so a load balancer takes the replica out of its pool before the listener closes; then the shutdown grace runs. `0`: shut down at once.',
      }),
    })
    .optional()
    .meta({
      description: 'Timeouts towards clients and model servers, in milliseconds.',
      examples: [{ connect_ms: 2000, idle_ms: 120000 }],
    }),
  retries: z
    .strictObject({
      attempts: nonNegativeInteger.optional().meta({
        description:
          'Retries of a failed upstream call, only before any byte reached the client, only for a connect failure, a reset before the request was written, or 502/503.',
      }),
      budget_percent: integer
        .pipe(z.number().int().min(0).max(100, 'expected a percentage 0..100'))
        .optional()
        .meta({ description: 'Retries in flight may be at most this share of active requests.' }),
      budget_floor: nonNegativeInteger
        .optional()
        .meta({ description: 'Retries always allowed in flight, whatever the share.' }),
    })
    .optional()
    .meta({ description: 'Retries towards model servers.', examples: [{ attempts: 0 }] }),
  responses: z
    .strictObject({
      image_input_form: oneOf(['image', 'text']).optional().meta({
        description:
          "`image`: a /v1/responses request with an image answers in the spec's form for image input; `text`: every answer in the text form.",
      }),
    })
    .optional()
    .meta({
      description: 'The shape of /v1/responses answers.',
      examples: [{ image_input_form: 'text' }],
    }),
  metrics: z
    .strictObject({
      enabled: boolean
        .optional()
        .meta({ description: 'Serve Prometheus metrics at `GET /metrics`.' }),
      port: portNumber.optional().meta({
        description:
          'Serve `/metrics` on this port (for scrapers on a private network) instead of the main one.',
      }),
      key: apiKey.optional().meta({
        description:
          'A key that opens `/metrics` on the main port and nothing else, besides the operator keys (`keys[].operator`).',
      }),
    })
    .optional()
    .meta({ description: 'Prometheus metrics.', examples: [{ port: 9464 }] }),
  docs: z
    .strictObject({
      enabled: boolean.optional().meta({
        description:
          'Serve `GET /openapi.json` and the reference page `GET /docs` (no key needed).',
      }),
    })
    .optional()
    .meta({
      description: 'The OpenAPI document and the API reference page.',
      examples: [{ enabled: false }],
    }),
  tracing: z
    .strictObject({
      otlp_endpoint: httpUrl('URL').optional().meta({
        description:
          'OTLP/HTTP base URL of a trace collector (`/v1/traces` is appended). Default: `OTEL_EXPORTER_OTLP_ENDPOINT`; with neither, tracing is off.',
      }),
      service_name: nonEmptyString.optional().meta({
        description: '`service.name` of the spans. Default: `OTEL_SERVICE_NAME`, else `infergate`.',
      }),
    })
    .optional()
    .meta({
      description: 'OpenTelemetry traces, off unless an OTLP endpoint is set.',
      examples: [{ otlp_endpoint: 'http://otel-collector:4318', service_name: 'infergate-eu' }],
    }),
});

/** The configuration file after `${NAME}` substitution and validation, still in the file's snake_case. */
export type ConfigFile = z.output<typeof configFileSchema>;
