import type { UpstreamConfig, UpstreamHealth } from '@infergate/core';

/** One configured upstream as the balancer sees it; shared by every model the upstream serves. */
export interface Endpoint {
  readonly upstream: UpstreamConfig;
  /** Requests sent and not yet finished (a stream counts until its iteration ends). */
  inFlight: number;
  consecutiveFailures: number;
  /** Times ejected since the last success after an ejection; multiplies the ejection time. */
  ejections: number;
  /** Until this time (ms) the endpoint gets no requests. */
  ejectedUntil: number;
  /** Back from an ejection and not yet proven healthy: one more failure ejects it again. */
  probing: boolean;
  /** When its latest outcome was a connect failure (ms), else undefined; read by `health()`. */
  connectFailedAt: number | undefined;
}

export interface EndpointPoolOptions {
  now: () => number;
  random: () => number;
  /** Consecutive connect failures or 5xx before an ejection (docs/design.md: 5). */
  failuresToEject?: number;
  /** Ejection time per time ejected, and its cap (docs/design.md: 30 s x n, cap 300 s). */
  baseEjectionMs?: number;
  maxEjectionMs?: number;
  /** Told of each ejection (the ejections metric). */
  onEject?: (endpoint: Endpoint) => void;
}

/**
 * Endpoints per catalogue model: least outstanding requests by power of two choices, and outlier
 * ejection as Envoy does it, except that the last available endpoint of a model is never ejected
 * (an ejected last endpoint would turn a flaky model into a dead one).
 */
export class EndpointPool {
  private readonly byModel = new Map<string, Endpoint[]>();
  private readonly endpoints: Endpoint[];
  private readonly failuresToEject: number;
  private readonly baseEjectionMs: number;
  private readonly maxEjectionMs: number;

  constructor(
    upstreams: readonly UpstreamConfig[],
    private readonly options: EndpointPoolOptions,
  ) {
    this.failuresToEject = options.failuresToEject ?? 5;
    this.baseEjectionMs = options.baseEjectionMs ?? 30_000;
    this.maxEjectionMs = options.maxEjectionMs ?? 300_000;
    this.endpoints = upstreams.map((upstream) => ({
      upstream,
      inFlight: 0,
      consecutiveFailures: 0,
      ejections: 0,
      ejectedUntil: 0,
      probing: false,
      connectFailedAt: undefined,
    }));
    for (const endpoint of this.endpoints) {
      for (const modelId of Object.keys(endpoint.upstream.models)) {
        const list = this.byModel.get(modelId) ?? [];
        list.push(endpoint);
        this.byModel.set(modelId, list);
      }
    }
  }

  /** The endpoints serving a model, in configuration order. */
  endpointsOf(modelId: string): readonly Endpoint[] {
    return this.byModel.get(modelId) ?? [];
  }

  isAvailable(endpoint: Endpoint): boolean {
    return endpoint.ejectedUntil <= this.options.now();
  }

  /**
   * An endpoint for the model: two random available ones, the one with fewer requests in flight.
   * Endpoints in `exclude` (already tried) are avoided while another is available.
   */
  pick(modelId: string, exclude?: ReadonlySet<Endpoint>): Endpoint | undefined {
    const all = this.endpointsOf(modelId);
    // Most models have one endpoint: the choice below would build two arrays to return it.
    if (all.length === 1)
      return all[0] !== undefined && this.isAvailable(all[0]) ? all[0] : undefined;
    const available = all.filter((endpoint) => this.isAvailable(endpoint));
    const fresh =
      exclude === undefined ? available : available.filter((endpoint) => !exclude.has(endpoint));
    const candidates = fresh.length > 0 ? fresh : available;
    if (candidates.length <= 1) return candidates[0];
    const first = Math.min(
      candidates.length - 1,
      Math.floor(this.options.random() * candidates.length),
    );
    // The second draw is over the others, so the pair is always two distinct endpoints.
    let second = Math.min(
      candidates.length - 2,
      Math.floor(this.options.random() * (candidates.length - 1)),
    );
    if (second >= first) second += 1;
    const a = candidates[first];
    const b = candidates[second];
    if (a === undefined || b === undefined) return a ?? b;
    return b.inFlight < a.inFlight ? b : a;
  }

  recordSuccess(endpoint: Endpoint): void {
    endpoint.consecutiveFailures = 0;
    endpoint.connectFailedAt = undefined;
    if (endpoint.probing) {
      endpoint.probing = false;
      endpoint.ejections = 0;
    }
  }

  /** A connect failure or a 5xx. `connect` marks the endpoint unreachable for `health()`. */
  recordFailure(endpoint: Endpoint, connect: boolean): void {
    const now = this.options.now();
    endpoint.connectFailedAt = connect ? now : undefined;
    if (!this.isAvailable(endpoint)) return; // a request sent before the ejection, finishing late
    endpoint.consecutiveFailures += 1;
    if (
      (endpoint.probing || endpoint.consecutiveFailures >= this.failuresToEject) &&
      this.canEject(endpoint)
    ) {
      endpoint.ejections += 1;
      endpoint.ejectedUntil =
        now + Math.min(this.baseEjectionMs * endpoint.ejections, this.maxEjectionMs);
      endpoint.consecutiveFailures = 0;
      endpoint.probing = true;
      this.options.onEject?.(endpoint);
    }
  }

  /**
   * Each endpoint's state from the outcomes of real traffic: ejected, unreachable (its latest outcome
   * was a connect failure in the last base ejection period) or up. No network call, so it is cheap
   * enough for every scrape.
   */
  health(): UpstreamHealth[] {
    const now = this.options.now();
    return this.endpoints.map((endpoint) => {
      const ejectedForMs = Math.max(0, endpoint.ejectedUntil - now);
      const unreachable =
        endpoint.connectFailedAt !== undefined &&
        now - endpoint.connectFailedAt < this.baseEjectionMs;
      return {
        upstream: endpoint.upstream.name,
        state: ejectedForMs > 0 ? 'ejected' : unreachable ? 'unreachable' : 'up',
        models: Object.keys(endpoint.upstream.models),
        inFlight: endpoint.inFlight,
        consecutiveFailures: endpoint.consecutiveFailures,
        ejectedForMs,
      };
    });
  }

  private canEject(endpoint: Endpoint): boolean {
    for (const modelId of Object.keys(endpoint.upstream.models)) {
      const others = this.endpointsOf(modelId).some(
        (other) => other !== endpoint && this.isAvailable(other),
      );
      if (!others) return false;
    }
    return true;
  }
}
