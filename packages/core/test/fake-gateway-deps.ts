import { createKeyStore } from '../src/auth/create-key-store.js';
import type { KeyStoreEntry } from '../src/auth/create-key-store.js';
import { resolveGatewayConfig } from '../src/config/resolve-gateway-config.js';
import type { IdSource, RequestRecord, UpstreamPort } from '../src/handlers/ports.js';
import type { GatewayDeps, HandlerInput } from '../src/http/handler-types.js';

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
  ready: async () => true,
};

export interface FakeDeps extends GatewayDeps {
  records: RequestRecord[];
}

/** Deps over the zero-config configuration, one key (`testKey`) and a metrics sink that keeps records. */
export function fakeGatewayDeps(options: { file?: unknown; keys?: readonly KeyStoreEntry[]; upstream?: Partial<UpstreamPort> } = {}): FakeDeps {
  const records: RequestRecord[] = [];
  return {
    config: resolveGatewayConfig(options.file, {}),
    upstream: { ...idleUpstream, ...options.upstream },
    keys: createKeyStore(options.keys ?? [testKey]),
    clock: { now: () => 1_750_000_000_000 },
    ids: countingIds(),
    metrics: { record: (record) => records.push(record) },
    records,
  };
}

/** A HandlerInput with lower-case header lookup. */
export function handlerInput(fields: { method?: string; path?: string; params?: Record<string, string>; headers?: Record<string, string>; body?: string; requestId?: string } = {}): HandlerInput {
  const headers = new Map(Object.entries(fields.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
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
