import type { UpstreamConfig, UpstreamPort } from '@infergate/core';
import { createUpstreamPort } from '../../src/create-upstream-port.js';
import type { UpstreamPortOptions } from '../../src/create-upstream-port.js';
import type { AttemptTimeouts } from '../../src/send-attempt.js';
import type { Transport } from '../../src/transport.js';

export const wideTimeouts: AttemptTimeouts = {
  connectMs: 2_000,
  headersMs: 5_000,
  firstEventMs: 5_000,
  idleMs: 5_000,
  streamTotalMs: 60_000,
};

export function upstreamAt(
  name: string,
  url: string,
  extra: Partial<UpstreamConfig> = {},
): UpstreamConfig {
  return { name, url, protocol: 'openai', models: { m: 'served-m' }, ...extra };
}

export function makePort(
  upstreams: UpstreamConfig[],
  transport: Transport,
  overrides: Partial<Omit<UpstreamPortOptions, 'timeouts'>> & {
    timeouts?: Partial<AttemptTimeouts>;
  } = {},
): UpstreamPort {
  return createUpstreamPort({
    upstreams,
    retries: { attempts: 1, budgetPercent: 20, budgetFloor: 3 },
    transportFor: () => transport,
    ...overrides,
    timeouts: { ...wideTimeouts, ...overrides.timeouts },
  });
}

export function call(
  overrides: { stream?: boolean; signal?: AbortSignal; body?: unknown; modelId?: string } = {},
) {
  return {
    modelId: overrides.modelId ?? 'm',
    path: '/v1/chat/completions',
    body: overrides.body ?? { model: 'served-m', messages: [{ role: 'user', content: 'hi' }] },
    stream: overrides.stream ?? false,
    signal: overrides.signal ?? new AbortController().signal,
    requestId: 'req-1',
  };
}
