import type { KeyBudget, KeyLimits } from '../config/gateway-config.js';
import type { FailureFacts } from '../errors/failure-facts.js';
import type { RequestObservation, UpstreamHealth } from '../ports/ports.js';

/** Traffic is kept in buckets of this length, for the charts' last ten minutes. */
export const statusBucketSeconds = 10;
const bucketMs = statusBucketSeconds * 1000;
const bucketCount = 60;
// A key's usage over the last minute: the newest six buckets.
const keyBucketCount = 60_000 / bucketMs;
const failureCount = 50;

/** A key as the configuration gives it (a bare key string has no name or limits). */
export type StatusKey =
  | string
  | { name?: string | undefined; limits?: KeyLimits | undefined; budget?: KeyBudget | undefined };

interface Bucket {
  start: number;
  requests: number;
  serverErrors: number;
  clientErrors: number;
  firstByteMsSum: number;
  firstByteMsMax: number;
}

interface KeyUsage {
  starts: number[];
  requests: number[];
  tokens: number[];
}

interface Failure {
  at: number;
  route: string;
  status: number;
  model: string | undefined;
  upstream: string | undefined;
  cause: string;
}

/** What the gateway tells the board besides its requests, read when a snapshot is taken. */
export interface StatusSources {
  upstreams: readonly UpstreamHealth[];
  requestsInFlight: number;
  requestsLimit: number;
}

/**
 * This replica's recent traffic for the operator page (GET /status): requests, errors and time to
 * first byte in ten-second buckets over ten minutes, each key's last minute against its limits, the
 * last failures and each upstream's last failure. In memory only, fixed in size, and fed once per
 * finished request with numbers the request already has: no body, prompt or key reaches it.
 */
export class StatusBoard {
  private readonly buckets: Bucket[] = [];
  private readonly usage = new Map<string, KeyUsage>();
  private readonly failures: Failure[] = [];
  private readonly lastUpstreamFailure = new Map<string, Failure>();
  // What a budgeted key had left after its latest request here, and when that period ends.
  private readonly budgetsSeen = new Map<string, { remaining: number; resetAt: number }>();
  private keys: readonly StatusKey[] = [];
  private streams = 0;

  constructor(private readonly startedAt: number) {
    for (let index = 0; index < bucketCount; index++)
      this.buckets.push({
        start: -1,
        requests: 0,
        serverErrors: 0,
        clientErrors: 0,
        firstByteMsSum: 0,
        firstByteMsMax: 0,
      });
  }

  /** The configured keys (at start and after a reload): their names and limits. */
  describeKeys(keys: readonly StatusKey[]): void {
    this.keys = keys;
  }

  streamStarted(): void {
    this.streams += 1;
  }

  streamEnded(): void {
    this.streams -= 1;
  }

  /** A budgeted key's request settled: what is left of its budget as this replica knows it. */
  noteBudget(name: string, remaining: number, resetAt: number): void {
    this.budgetsSeen.set(name, { remaining, resetAt });
  }

  observe(now: number, observation: RequestObservation, failure: FailureFacts | undefined): void {
    const start = now - (now % bucketMs);
    const bucket = this.buckets[(start / bucketMs) % bucketCount] as Bucket;
    if (bucket.start !== start) {
      bucket.start = start;
      bucket.requests = 0;
      bucket.serverErrors = 0;
      bucket.clientErrors = 0;
      bucket.firstByteMsSum = 0;
      bucket.firstByteMsMax = 0;
    }
    const { status } = observation;
    bucket.requests += 1;
    if (status >= 500) bucket.serverErrors += 1;
    else if (status >= 400) bucket.clientErrors += 1;
    bucket.firstByteMsSum += observation.firstByteMs;
    if (observation.firstByteMs > bucket.firstByteMsMax)
      bucket.firstByteMsMax = observation.firstByteMs;
    if (observation.keyName !== undefined) this.countKey(start, observation);
    if (status >= 500) this.noteFailure(now, observation, failure);
  }

  private countKey(start: number, observation: RequestObservation): void {
    let usage = this.usage.get(observation.keyName as string);
    if (usage === undefined) {
      usage = {
        starts: new Array<number>(keyBucketCount).fill(-1),
        requests: new Array<number>(keyBucketCount).fill(0),
        tokens: new Array<number>(keyBucketCount).fill(0),
      };
      this.usage.set(observation.keyName as string, usage);
    }
    const slot = (start / bucketMs) % keyBucketCount;
    if (usage.starts[slot] !== start) {
      usage.starts[slot] = start;
      usage.requests[slot] = 0;
      usage.tokens[slot] = 0;
    }
    (usage.requests[slot] as number) += 1;
    (usage.tokens[slot] as number) +=
      (observation.inputTokens ?? 0) + (observation.outputTokens ?? 0);
  }

  private noteFailure(
    now: number,
    observation: RequestObservation,
    failure: FailureFacts | undefined,
  ): void {
    const entry: Failure = {
      at: now,
      route: observation.operationId,
      status: observation.status,
      model: observation.model,
      upstream: observation.endpoint,
      cause: failure?.cause ?? observation.errorCode ?? 'unknown',
    };
    if (this.failures.length === failureCount) this.failures.shift();
    this.failures.push(entry);
    if (entry.upstream !== undefined) this.lastUpstreamFailure.set(entry.upstream, entry);
  }

  /** The page's data at `now`, as GET /status.json answers it. */
  snapshot(now: number, sources: StatusSources): StatusSnapshot {
    const current = now - (now % bucketMs);
    const traffic: StatusTrafficBucket[] = [];
    for (let age = bucketCount - 1; age >= 0; age--) {
      const start = current - age * bucketMs;
      const bucket = this.buckets[(start / bucketMs) % bucketCount] as Bucket;
      const live = bucket.start === start;
      traffic.push({
        start: new Date(start).toISOString(),
        requests: live ? bucket.requests : 0,
        server_errors: live ? bucket.serverErrors : 0,
        client_errors: live ? bucket.clientErrors : 0,
        first_byte_ms_avg:
          live && bucket.requests > 0 ? round(bucket.firstByteMsSum / bucket.requests) : 0,
        first_byte_ms_max: live ? round(bucket.firstByteMsMax) : 0,
      });
    }
    return {
      object: 'status',
      scope: 'counted in memory since it started',
      started_at: new Date(this.startedAt).toISOString(),
      now: new Date(now).toISOString(),
      in_flight: {
        requests: sources.requestsInFlight,
        streams: this.streams,
        limit: sources.requestsLimit,
      },
      upstreams: sources.upstreams.map((entry) => {
        const last = this.lastUpstreamFailure.get(entry.upstream);
        return {
          upstream: entry.upstream,
          state: entry.state,
          models: entry.models,
          in_flight: entry.inFlight,
          consecutive_failures: entry.consecutiveFailures,
          ejected_for_ms: entry.ejectedForMs,
          last_failure:
            last === undefined
              ? null
              : { at: new Date(last.at).toISOString(), status: last.status, cause: last.cause },
        };
      }),
      traffic: { bucket_seconds: statusBucketSeconds, buckets: traffic },
      keys: this.keyRows(current, now),
      failures: this.failures
        .map((entry) => ({
          at: new Date(entry.at).toISOString(),
          route: entry.route,
          status: entry.status,
          model: entry.model ?? null,
          upstream: entry.upstream ?? null,
          cause: entry.cause,
        }))
        .reverse(),
    };
  }

  // Unknown until the key's first request here settles, and again once that period has ended.
  private budgetRow(name: string, budget: KeyBudget, now: number): StatusBudget {
    const seen = this.budgetsSeen.get(name);
    const current = seen !== undefined && seen.resetAt > now ? seen : undefined;
    return {
      amount: budget.amount,
      currency: budget.currency,
      period: budget.period,
      remaining: current === undefined ? null : roundAmount(current.remaining),
      resets_at: current === undefined ? null : new Date(current.resetAt).toISOString(),
    };
  }

  private keyRows(current: number, now: number): StatusKeyRow[] {
    const oldest = current - (keyBucketCount - 1) * bucketMs;
    const lastMinute = (name: string): { requests: number; tokens: number } => {
      const usage = this.usage.get(name);
      let requests = 0;
      let tokens = 0;
      for (let slot = 0; slot < keyBucketCount && usage !== undefined; slot++) {
        if ((usage.starts[slot] as number) < oldest) continue;
        requests += usage.requests[slot] as number;
        tokens += usage.tokens[slot] as number;
      }
      return { requests, tokens };
    };
    const names = new Set<string>();
    const rows: StatusKeyRow[] = [];
    for (const entry of this.keys) {
      const key = typeof entry === 'string' ? {} : entry;
      const name = key.name ?? 'unnamed';
      if (names.has(name)) continue;
      names.add(name);
      rows.push({
        name,
        last_minute: lastMinute(name),
        limits: {
          requests_per_minute: key.limits?.requestsPerMinute ?? null,
          tokens_per_minute: key.limits?.tokensPerMinute ?? null,
          concurrent_requests: key.limits?.concurrentRequests ?? null,
        },
        budget: key.budget === undefined ? null : this.budgetRow(name, key.budget, now),
      });
    }
    // Keys seen in traffic but no longer configured (revoked by a reload) keep their row for a minute.
    for (const name of this.usage.keys()) {
      if (names.has(name)) continue;
      const used = lastMinute(name);
      if (used.requests === 0) continue;
      rows.push({
        name,
        last_minute: used,
        limits: { requests_per_minute: null, tokens_per_minute: null, concurrent_requests: null },
        budget: null,
      });
    }
    return rows;
  }
}

function roundAmount(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

export interface StatusTrafficBucket {
  start: string;
  requests: number;
  server_errors: number;
  client_errors: number;
  first_byte_ms_avg: number;
  first_byte_ms_max: number;
}

/** A key's budget on the page: `remaining` as of its latest request on this replica. */
export interface StatusBudget {
  amount: number;
  currency: string;
  period: KeyBudget['period'];
  remaining: number | null;
  resets_at: string | null;
}

export interface StatusKeyRow {
  name: string;
  last_minute: { requests: number; tokens: number };
  budget: StatusBudget | null;
  limits: {
    requests_per_minute: number | null;
    tokens_per_minute: number | null;
    concurrent_requests: number | null;
  };
}

export interface StatusSnapshot {
  object: 'status';
  scope: string;
  started_at: string;
  now: string;
  in_flight: { requests: number; streams: number; limit: number };
  upstreams: {
    upstream: string;
    state: UpstreamHealth['state'];
    models: readonly string[];
    in_flight: number;
    consecutive_failures: number;
    ejected_for_ms: number;
    last_failure: { at: string; status: number; cause: string } | null;
  }[];
  traffic: { bucket_seconds: number; buckets: StatusTrafficBucket[] };
  keys: StatusKeyRow[];
  failures: {
    at: string;
    route: string;
    status: number;
    model: string | null;
    upstream: string | null;
    cause: string;
  }[];
}
