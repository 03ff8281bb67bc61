import { createKeyStore } from '../src/auth/create-key-store.js';
import type { KeyStoreEntry } from '../src/auth/create-key-store.js';
import { resolveGatewayConfig } from '../src/config/resolve-gateway-config.js';
import type {
  IdSource,
  KeyStore,
  MetricsSink,
  RequestRecord,
  UpstreamPort,
} from '../src/ports/ports.js';
import { createGateway } from '../src/gateway/create-gateway.js';
import type { Gateway } from '../src/gateway/gateway-types.js';
import type {
  GatewayDeps,
  HandlerInput,
  HandlerResult,
  RouteDefinition,
} from '../src/ports/handler-types.js';
import type { LimitStore } from '../src/limits/limit-store.js';

export const testKey = 'sk-test-0123456789abcdef';

/** An IdSource that counts, so generated ids are predictable in a test. */
export function countingIds(): IdSource {
  let next = 0;
  return {
    hex: (length) => (next++).toString(16).padStart(length, '0').slice(-length),
    digits: (length) => `1${String(next++).padStart(length - 1, '0')}`.slice(0, length),
  };
}

const idleUpstream: UpstreamPort = {
  target: () => undefined,
  send: () => Promise.reject(new Error('no upstream in this test')),
};

export interface FakeDeps extends GatewayDeps {
  records: RequestRecord[];
  /** The gateway over these deps: spread with an identity, the deps are a handler context. */
  gateway: Gateway;
}

/** Deps over the zero-config configuration, one key (`testKey`) and a metrics sink that keeps records. */
export function fakeGatewayDeps(
  options: {
    file?: unknown;
    keys?: readonly KeyStoreEntry[];
    upstream?: Partial<UpstreamPort>;
    limiter?: LimitStore;
    keyStore?: KeyStore;
    metrics?: MetricsSink;
  } = {},
): FakeDeps {
  const records: RequestRecord[] = [];
  const config = resolveGatewayConfig(options.file, {});
  const ports = {
    upstream: { ...idleUpstream, ...options.upstream },
    keys: options.keyStore ?? createKeyStore(options.keys ?? [testKey]),
    clock: { now: () => 1_750_000_000_000 },
    ids: countingIds(),
    metrics: options.metrics ?? { record: (record: RequestRecord) => void records.push(record) },
  };
  const gateway = createGateway({
    config,
    ports: options.limiter === undefined ? ports : { ...ports, limiter: options.limiter },
  });
  return { ...gateway.deps, records, gateway };
}

/** Runs a route through the fake's gateway, as an app does. */
export function dispatch(
  route: RouteDefinition,
  input: HandlerInput,
  deps: FakeDeps,
): Promise<HandlerResult> {
  return deps.gateway.dispatch(route, input);
}

/** A HandlerInput with lower-case header lookup. */
export function handlerInput(
  fields: {
    method?: string;
    path?: string;
    params?: Record<string, string>;
    headers?: Record<string, string>;
    body?: string;
    requestId?: string;
  } = {},
): HandlerInput {
  const headers = new Map(
    Object.entries(fields.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  return {
    method: fields.method ?? 'GET',
    path: fields.path ?? '/',
    params: fields.params ?? {},
    header: (name) => headers.get(name.toLowerCase()),
    body: fields.body,
    signal: new AbortController().signal,
    requestId: fields.requestId ?? 'req-test-1',
  };
}
