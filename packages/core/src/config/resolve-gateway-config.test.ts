import { describe, expect, it } from 'vitest';
import { ConfigError, isConfigError, resolveGatewayConfig } from './resolve-gateway-config.js';

function configErrorOf(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (isConfigError(error)) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

const mib = 1024 * 1024;

describe('resolveGatewayConfig defaults (docs/design.md "Limits and timeouts")', () => {
  const config = resolveGatewayConfig(undefined, {});

  it('listens on 127.0.0.1:8080', () => {
    expect(config.server).toEqual({ host: '127.0.0.1', port: 8080 });
  });

  it('limits bodies to 2 MiB (JSON), 100 MiB (images) and 8 MiB of text, with no gateway-wide concurrency cap, and 4096 connections', () => {
    expect(config.limits).toEqual({
      bodyJsonBytes: 2 * mib,
      bodyImageBytes: 100 * mib,
      bodyTextBytes: 8 * mib,
      maxConcurrentRequests: 0,
      maxConnections: 4096,
      maxInflightBodyBytes: 256 * mib,
    });
  });

  it('fills every timeout', () => {
    expect(config.timeouts).toEqual({
      connectMs: 5_000,
      firstEventMs: 300_000,
      headersMs: 600_000,
      idleMs: 60_000,
      streamTotalMs: 1_800_000,
      keepaliveMs: 15_000,
      inboundHeadersMs: 30_000,
      inboundRequestMs: 120_000,
      bodyIdleMs: 10_000,
      keepAliveMs: 72_000,
      shutdownGraceMs: 30_000,
      drainDelayMs: 5_000,
    });
  });

  it('retries once with a 20 % budget, floor 3', () => {
    expect(config.retries).toEqual({ attempts: 1, budgetPercent: 20, budgetFloor: 3 });
  });

  it('answers image input in the spec form for image input, has no keys, prices or master URL', () => {
    expect(config.responses).toEqual({ imageInputForm: 'image' });
    expect(config.keys).toEqual([]);
    expect(config.prices).toEqual({});
    expect(config.masterUrl).toBeUndefined();
  });

  it('treats an empty (null) YAML file like no file', () => {
    expect(resolveGatewayConfig(null, {}).limits).toEqual(config.limits);
  });
});

describe('zero-config local backend', () => {
  it('gives every catalogue model to the local backend, one entry per protocol', () => {
    const config = resolveGatewayConfig(undefined, {});
    expect(config.localBackend).toBe(true);
    const byName = new Map(config.upstreams.map((upstream) => [upstream.name, upstream]));
    expect([...byName.keys()].sort()).toEqual([
      'local-backend-cohere',
      'local-backend-images',
      'local-backend-openai',
    ]);
    for (const upstream of config.upstreams) {
      expect(upstream.local).toBe(true);
      expect(upstream.url).toBe('http://local-backend.invalid');
    }
    expect(byName.get('local-backend-cohere')?.protocol).toBe('cohere');
    expect(byName.get('local-backend-cohere')?.models).toEqual({
      'gamma-reranker-v2-m3': 'gamma-reranker-v2-m3',
    });
    expect(Object.keys(byName.get('local-backend-images')?.models ?? {}).sort()).toEqual([
      'alpha-image',
      'alpha-image-edit',
      'alpha-image-edit-pe',
      'alpha-image-pe',
    ]);
    const openai = byName.get('local-backend-openai');
    expect(openai?.models['beta53-flash-chat']).toBe('beta53-flash-chat');
    expect(openai?.models['gamma-m3']).toBe('gamma-m3');
    expect(openai?.models['alpha3-vl-embedding-8b']).toBe('alpha3-vl-embedding-8b');
    expect(Object.keys(openai?.models ?? {})).toHaveLength(13);
  });

  it('serves nothing locally once an upstream is configured', () => {
    const config = resolveGatewayConfig(
      {
        upstreams: [
          {
            name: 'text-a',
            url: 'http://10.0.0.5:8000',
            protocol: 'openai',
            models: { 'alpha36-35b-a3b-instruct': 'served-1' },
          },
        ],
      },
      {},
    );
    expect(config.localBackend).toBe(false);
    expect(config.upstreams).toEqual([
      {
        name: 'text-a',
        url: 'http://10.0.0.5:8000',
        protocol: 'openai',
        models: { 'alpha36-35b-a3b-instruct': 'served-1' },
      },
    ]);
  });

  it('with local_backend: true, serves locally only the models no upstream serves', () => {
    const config = resolveGatewayConfig(
      {
        local_backend: true,
        upstreams: [
          {
            name: 'rerank',
            url: 'https://rerank.example.com/',
            api_key: 'k',
            protocol: 'tei',
            models: { 'gamma-reranker-v2-m3': 'bge' },
          },
        ],
      },
      {},
    );
    expect(config.localBackend).toBe(true);
    expect(config.upstreams[0]).toEqual({
      name: 'rerank',
      url: 'https://rerank.example.com',
      apiKey: 'k',
      protocol: 'tei',
      models: { 'gamma-reranker-v2-m3': 'bge' },
    });
    expect(config.upstreams.map((upstream) => upstream.name)).not.toContain('local-backend-cohere');
    expect(
      config.upstreams.flatMap((upstream) => (upstream.local ? Object.keys(upstream.models) : [])),
    ).not.toContain('gamma-reranker-v2-m3');
  });

  it('accepts a -pe image model whose text model the local backend serves', () => {
    const config = resolveGatewayConfig(
      {
        local_backend: true,
        upstreams: [
          {
            name: 'img',
            url: 'http://10.0.0.9:8000',
            protocol: 'images',
            models: { 'alpha-image-pe': 'flux' },
          },
        ],
      },
      {},
    );
    expect(
      config.upstreams.some(
        (upstream) =>
          upstream.local && upstream.models['alpha35-122b-a10b-instruct-general'] !== undefined,
      ),
    ).toBe(true);
  });

  it('covers a model added by configuration', () => {
    const config = resolveGatewayConfig(
      {
        models: {
          'alpha35-397b-a17b-instruct-general': {
            kind: 'text',
            context: 262144,
            serves: ['responses', 'chat'],
          },
        },
      },
      {},
    );
    const openai = config.upstreams.find((upstream) => upstream.name === 'local-backend-openai');
    expect(openai?.models['alpha35-397b-a17b-instruct-general']).toBe(
      'alpha35-397b-a17b-instruct-general',
    );
  });
});

describe('keys and server from the environment', () => {
  it('merges INFERGATE_API_KEYS (trimmed, empties dropped) with the file keys, without duplicates', () => {
    const config = resolveGatewayConfig(
      { keys: ['file-key', 'env-b', { key: 'named-key', name: 'ci', models: ['general-std'] }] },
      { INFERGATE_API_KEYS: ' env-a , ,env-b,' },
    );
    expect(config.keys).toEqual(['env-a', 'env-b', 'file-key', 'named-key']);
    expect(config.keyEntries[3]).toEqual({ key: 'named-key', name: 'ci', models: ['general-std'] });
  });

  it("gives a key in both places the file's settings, and refuses a key listed twice in the file", () => {
    const config = resolveGatewayConfig(
      { keys: [{ key: 'env-b', name: 'team-b', limits: { requests_per_minute: 5 } }] },
      { INFERGATE_API_KEYS: 'env-a,env-b' },
    );
    expect(config.keyEntries).toEqual([
      { key: 'env-a' },
      { key: 'env-b', name: 'team-b', limits: { requestsPerMinute: 5 } },
    ]);
    expect(() =>
      resolveGatewayConfig({ keys: ['k-1', 'k-2', { key: 'k-1', name: 'again' }] }, {}),
    ).toThrow(/^keys\[2\]: the same key as keys\[0\]/);
  });

  it('marks operator keys (operator: true) and no others', () => {
    const config = resolveGatewayConfig(
      {
        keys: [
          { key: 'ops-key', name: 'ops', operator: true },
          { key: 'team-key', operator: false },
          'plain-key',
        ],
      },
      { INFERGATE_API_KEYS: 'env-key' },
    );
    expect(config.keyEntries).toEqual([
      { key: 'env-key' },
      { key: 'ops-key', name: 'ops', operator: true },
      { key: 'team-key' },
      { key: 'plain-key' },
    ]);
    expect(() => resolveGatewayConfig({ keys: [{ key: 'ops-key', operator: 'yes' }] }, {})).toThrow(
      /keys\[0\]/,
    );
  });

  it('takes HOST and PORT over the file', () => {
    expect(resolveGatewayConfig({ server: { host: '0.0.0.0', port: 9000 } }, {}).server).toEqual({
      host: '0.0.0.0',
      port: 9000,
    });
    expect(
      resolveGatewayConfig(
        { server: { host: '0.0.0.0', port: 9000 } },
        { HOST: '::1', PORT: '7000' },
      ).server,
    ).toEqual({ host: '::1', port: 7000 });
  });

  it('refuses a PORT that is not a port', () => {
    expect(configErrorOf(() => resolveGatewayConfig(undefined, { PORT: 'eighty' })).path).toBe(
      'PORT',
    );
    expect(configErrorOf(() => resolveGatewayConfig(undefined, { PORT: '70000' })).path).toBe(
      'PORT',
    );
  });

  it('refuses a drain delay that is not a non-negative integer, naming it', () => {
    expect(
      configErrorOf(() => resolveGatewayConfig({ timeouts: { drain_delay_ms: -1 } }, {})).path,
    ).toBe('timeouts.drain_delay_ms');
    expect(
      configErrorOf(() => resolveGatewayConfig({ timeouts: { drain_delay_ms: '5s' } }, {})).path,
    ).toBe('timeouts.drain_delay_ms');
  });

  it('reads the body idle limit and refuses one that is not a positive integer, naming it', () => {
    expect(resolveGatewayConfig({ timeouts: { body_idle_ms: 500 } }, {}).timeouts.bodyIdleMs).toBe(
      500,
    );
    expect(
      configErrorOf(() => resolveGatewayConfig({ timeouts: { body_idle_ms: 0 } }, {})).path,
    ).toBe('timeouts.body_idle_ms');
  });

  it('refuses a key holding a space', () => {
    expect(configErrorOf(() => resolveGatewayConfig({ keys: ['two words'] }, {})).path).toBe(
      'keys[0]',
    );
  });
});

describe('overrides and substitution', () => {
  it('applies every section of the file', () => {
    const config = resolveGatewayConfig(
      {
        master_url: 'https://master.example.com',
        limits: {
          body_json_bytes: 1024,
          body_image_bytes: 2048,
          body_text_bytes: 4096,
          max_concurrent_requests: 64,
          max_connections: 0,
        },
        timeouts: {
          connect_ms: 1000,
          first_event_ms: 2000,
          idle_ms: 3000,
          shutdown_grace_ms: 0,
          drain_delay_ms: 0,
        },
        retries: { attempts: 0, budget_percent: 50, budget_floor: 1 },
        responses: { image_input_form: 'text' },
        prices: {
          'alpha36-35b-a3b-instruct': {
            input_per_million: 0.1,
            output_per_million: 0.4,
            currency: 'USD',
          },
        },
      },
      {},
    );
    expect(config.masterUrl).toBe('https://master.example.com');
    expect(config.limits).toEqual({
      bodyJsonBytes: 1024,
      bodyImageBytes: 2048,
      bodyTextBytes: 4096,
      maxConcurrentRequests: 64,
      maxConnections: 0,
      maxInflightBodyBytes: 256 * mib,
    });
    expect(config.timeouts).toMatchObject({
      connectMs: 1000,
      firstEventMs: 2000,
      idleMs: 3000,
      headersMs: 600_000,
      shutdownGraceMs: 0,
      drainDelayMs: 0,
    });
    expect(config.retries).toEqual({ attempts: 0, budgetPercent: 50, budgetFloor: 1 });
    expect(config.responses.imageInputForm).toBe('text');
    expect(config.prices['alpha36-35b-a3b-instruct']).toEqual({
      input_per_million: 0.1,
      output_per_million: 0.4,
      currency: 'USD',
    });
  });

  it('substitutes ${NAME} in keys, api keys and numbers', () => {
    const config = resolveGatewayConfig(
      {
        keys: ['${KEY_A}'],
        server: { port: '${GATEWAY_PORT}' },
        upstreams: [
          {
            name: 'a',
            url: 'http://${UPSTREAM_HOST}:8000',
            api_key: '${VLLM_KEY}',
            protocol: 'openai',
            models: { 'gamma-m3': 'bge-m3' },
          },
        ],
      },
      {
        KEY_A: 'secret-a',
        GATEWAY_PORT: '8181',
        UPSTREAM_HOST: '10.0.0.7',
        VLLM_KEY: 'vllm-secret',
      },
    );
    expect(config.keys).toEqual(['secret-a']);
    expect(config.server.port).toBe(8181);
    expect(config.upstreams[0]).toMatchObject({
      url: 'http://10.0.0.7:8000',
      apiKey: 'vllm-secret',
    });
  });

  it('names a missing variable and where it was used', () => {
    const error = configErrorOf(() =>
      resolveGatewayConfig(
        {
          upstreams: [
            {
              name: 'a',
              url: 'http://a:1',
              api_key: '${VLLM_KEY}',
              protocol: 'openai',
              models: { 'gamma-m3': 'm' },
            },
          ],
        },
        {},
      ),
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.path).toBe('upstreams[0].api_key');
    expect(error.message).toContain('VLLM_KEY');
  });
});

describe('ConfigError paths', () => {
  const upstream = {
    name: 'a',
    url: 'http://10.0.0.5:8000',
    protocol: 'openai',
    models: { 'gamma-m3': 'bge-m3' },
  };
  const cases: Array<[string, unknown, string, string]> = [
    [
      'a bad protocol',
      { upstreams: [upstream, { ...upstream, name: 'b', protocol: 'grpc' }] },
      'upstreams[1].protocol',
      'upstreams[1].protocol: expected one of openai|tei|cohere|images',
    ],
    ['an unknown top-level key', { listen: 8080 }, 'listen', 'unknown key'],
    ['an unknown nested key', { timeouts: { connect: 5 } }, 'timeouts.connect', 'unknown key'],
    [
      'a missing upstream url',
      { upstreams: [{ name: 'a', protocol: 'openai', models: { 'gamma-m3': 'm' } }] },
      'upstreams[0].url',
      'required',
    ],
    [
      'an upstream url with a path',
      { upstreams: [{ ...upstream, url: 'http://10.0.0.5:8000/v1' }] },
      'upstreams[0].url',
      'origin',
    ],
    [
      'an upstream url that is not http',
      { upstreams: [{ ...upstream, url: 'ftp://10.0.0.5' }] },
      'upstreams[0].url',
      'http',
    ],
    [
      'a model no catalogue has',
      { upstreams: [{ ...upstream, models: { 'gamma-m4': 'x' } }] },
      'upstreams[0].models.gamma-m4',
      "unknown catalogue model 'gamma-m4'",
    ],
    [
      'a virtual id mapped on an upstream',
      { upstreams: [{ ...upstream, models: { 'general-std': 'x' } }] },
      'upstreams[0].models.general-std',
      'alpha36-35b-a3b-instruct',
    ],
    [
      'a text model over tei',
      {
        upstreams: [{ ...upstream, protocol: 'tei', models: { 'alpha36-35b-a3b-instruct': 'x' } }],
      },
      'upstreams[0].models.alpha36-35b-a3b-instruct',
      'expected one of openai',
    ],
    [
      'an image model over openai',
      { upstreams: [{ ...upstream, models: { 'alpha-image': 'x' } }] },
      'upstreams[0].models.alpha-image',
      'expected one of images',
    ],
    [
      'an embedding model over images',
      { upstreams: [{ ...upstream, protocol: 'images' }] },
      'upstreams[0].models.gamma-m3',
      'expected one of openai|tei',
    ],
    // Cohere's adapter has rerank only: an embedding model there would answer every request with a 502.
    [
      'an embedding model over cohere',
      { upstreams: [{ ...upstream, protocol: 'cohere' }] },
      'upstreams[0].models.gamma-m3',
      'embedding models cannot be served over protocol cohere; expected one of openai|tei',
    ],
    [
      'one model over two protocols',
      { upstreams: [upstream, { ...upstream, name: 'b', protocol: 'tei' }] },
      'upstreams[1].models.gamma-m3',
      'same protocol',
    ],
    [
      'two upstreams with one name',
      { upstreams: [upstream, upstream] },
      'upstreams[1].name',
      'another upstream',
    ],
    [
      'an upstream with no models',
      { upstreams: [{ ...upstream, models: {} }] },
      'upstreams[0].models',
      'at least one',
    ],
    [
      'a virtual model to nowhere',
      { virtual_models: { 'my-default': 'alpha99' } },
      'virtual_models.my-default',
      "unknown catalogue model 'alpha99'",
    ],
    [
      'a virtual id equal to a catalogue id',
      { virtual_models: { 'gamma-m3': 'alpha36-35b-a3b-instruct' } },
      'virtual_models.gamma-m3',
      'catalogue model id',
    ],
    [
      'a price for an unknown model',
      { prices: { nope: { input_per_million: 1, output_per_million: 1, currency: 'USD' } } },
      'prices.nope',
      'unknown catalogue model',
    ],
    [
      'a lower-case currency',
      { prices: { 'gamma-m3': { input_per_million: 1, output_per_million: 1, currency: 'usd' } } },
      'prices.gamma-m3.currency',
      'ISO 4217',
    ],
    ['a negative timeout', { timeouts: { idle_ms: -1 } }, 'timeouts.idle_ms', 'positive'],
    [
      'a fractional body limit',
      { limits: { body_json_bytes: 1.5 } },
      'limits.body_json_bytes',
      'integer',
    ],
    [
      'a percentage over 100',
      { retries: { budget_percent: 120 } },
      'retries.budget_percent',
      '0..100',
    ],
    [
      'a bad image_input_form',
      { responses: { image_input_form: 'both' } },
      'responses.image_input_form',
      'expected one of image|text',
    ],
    ['a master_url that is not a URL', { master_url: 'master' }, 'master_url', 'http'],
    [
      'a key object with an unknown model',
      { keys: [{ key: 'k', models: ['nope'] }] },
      'keys[0].models[0]',
      "unknown model 'nope'",
    ],
    [
      'a key object with an unknown field',
      { keys: [{ key: 'k', scope: 'all' }] },
      'keys[0].scope',
      'unknown key',
    ],
    ['a key that is a number', { keys: ['ok', 5] }, 'keys[1]', 'expected a key string'],
    [
      'a model entry with an unknown field',
      { models: { 'gamma-m3': { context_window: 8192 } } },
      'models.gamma-m3.context_window',
      'unknown key',
    ],
    [
      'headers timeout over the request timeout',
      { timeouts: { inbound_headers_ms: 200_000 } },
      'timeouts.inbound_headers_ms',
      'inbound_request_ms',
    ],
    ['a file that is a list', [], '', 'mapping'],
    [
      'a -pe image model without its prompt-enhancement text model',
      {
        upstreams: [
          {
            name: 'img',
            url: 'http://10.0.0.9:8000',
            protocol: 'images',
            models: { 'alpha-image-pe': 'flux' },
          },
        ],
      },
      'upstreams[0].models.alpha-image-pe',
      "'alpha35-122b-a10b-instruct-general', which no upstream serves",
    ],
  ];

  it.each(cases)('names the field for %s', (_name, file, path, message) => {
    const error = configErrorOf(() => resolveGatewayConfig(file, {}));
    expect(error.path).toBe(path);
    expect(error.message).toContain(message);
    expect(error.message.startsWith(path)).toBe(true);
  });
});
