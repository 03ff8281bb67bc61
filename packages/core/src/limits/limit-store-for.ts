import type { GatewayDeps } from '../http/handler-types.js';
import { createMemoryLimitStore } from './create-memory-limit-store.js';
import type { LimitStore } from './limit-store.js';

// One in-memory store per gateway when the app wires none (the edge app, tests): like the admission
// gate, the resolved config object identifies the gateway, so every app gets key limits by default.
const defaults = new WeakMap<GatewayDeps['config'], LimitStore>();

/** The limit store the app wired (`deps.limiter`), else this gateway's in-memory one. */
export function limitStoreFor(deps: GatewayDeps): LimitStore {
  if (deps.limiter !== undefined) return deps.limiter;
  let store = defaults.get(deps.config);
  if (store === undefined) {
    store = createMemoryLimitStore(deps.clock);
    defaults.set(deps.config, store);
  }
  return store;
}
