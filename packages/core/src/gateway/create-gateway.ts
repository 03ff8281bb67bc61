import { AdmissionGate } from '../admission/admission-gate.js';
import { RetryBudget } from '../admission/retry-budget.js';
import { createKeyStore } from '../auth/create-key-store.js';
import type { GatewayConfig } from '../config/gateway-config.js';
import type { GatewayError } from '../errors/gateway-error.js';
import type { ApiKeyIdentity, KeyStore, MetricsSink } from '../ports/ports.js';
import { checkBeforeBody } from '../http/check-before-body.js';
import { dispatch } from '../http/dispatch.js';
import type {
  GatewayDeps,
  HandlerInput,
  HandlerResult,
  JsonResult,
  Readiness,
  RouteDefinition,
} from '../ports/handler-types.js';
import { matchRoute, type RouteMatch } from '../http/match-route.js';
import { routeTable } from './route-table.js';
import {
  unmatchedResult,
  withCorsHeaders,
  type UnmatchedRequest,
} from '../http/unmatched-result.js';
import { createMemoryLimitStore } from '../limits/create-memory-limit-store.js';
import type { LimitStore } from '../limits/limit-store.js';
import { isBudgetStore, type BudgetStore } from '../budgets/budget-store.js';
import { createMemoryBudgetStore } from '../budgets/create-memory-budget-store.js';
import { metricsPortResult } from '../metrics/metrics-handler.js';
import { buildOpenApiDocument } from '../openapi/build-openapi-document.js';
import { StatusBoard, type StatusKey } from '../status/status-board.js';
import { statusPortResult } from '../handlers/status-handlers.js';
import type { CreateGatewayOptions, Gateway } from './gateway-types.js';

const noMetrics: MetricsSink = { record: () => undefined };
const systemClock = { now: () => Date.now() };

class CoreGateway implements Gateway {
  readonly config: GatewayConfig;
  readonly deps: GatewayDeps;
  readonly routes: readonly RouteDefinition[];
  readonly admission: AdmissionGate;
  readonly limiter: LimitStore;
  readonly budgets: BudgetStore;
  readonly fallbacks: RetryBudget;
  readonly metricsKeys: KeyStore | undefined;
  readonly status: StatusBoard;
  private isDraining = false;
  private document: string | undefined;

  constructor({ config, ports, routes, keyEntries }: CreateGatewayOptions) {
    this.config = config;
    this.routes = routes ?? routeTable;
    const clock = ports.clock ?? systemClock;
    this.deps = {
      config,
      upstream: ports.upstream,
      keys: ports.keys,
      clock,
      ids: ports.ids,
      metrics: ports.metrics ?? noMetrics,
      draining: () => this.isDraining,
      ...(ports.docsAssets === undefined ? {} : { docsAssets: ports.docsAssets }),
      ...(ports.encodeBase64 === undefined ? {} : { encodeBase64: ports.encodeBase64 }),
    };
    this.admission = new AdmissionGate(config.limits.maxConcurrentRequests);
    this.limiter = ports.limiter ?? createMemoryLimitStore(clock);
    // Budgets are counted where the limits are, when that store counts them too (the Redis store does).
    this.budgets = isBudgetStore(this.limiter) ? this.limiter : createMemoryBudgetStore(clock);
    this.fallbacks = new RetryBudget(config.retries);
    this.status = new StatusBoard(clock.now());
    this.status.describeKeys(keyEntries ?? []);
    // The metrics key is compared like an API key (hashes, constant time).
    const metricsKey = config.metrics?.key;
    this.metricsKeys =
      metricsKey === undefined ? undefined : createKeyStore([{ key: metricsKey, name: 'metrics' }]);
    // The metrics read the upstreams' health when they are scraped, from the port that keeps it.
    const { upstream } = ports;
    this.deps.metrics.watchUpstreams?.(() => upstream.health?.() ?? []);
  }

  get draining(): boolean {
    return this.isDraining;
  }

  checkBeforeBody(
    route: RouteDefinition,
    header: (name: string) => string | undefined,
  ): ApiKeyIdentity | undefined | Promise<ApiKeyIdentity | undefined> {
    return checkBeforeBody(this, route, header);
  }

  dispatch(
    route: RouteDefinition,
    input: HandlerInput,
    checked?: ApiKeyIdentity,
  ): Promise<HandlerResult> {
    return dispatch(this, route, input, checked);
  }

  match(method: string, path: string): RouteMatch | GatewayError {
    return matchRoute(this.routes, method, path);
  }

  unmatched(request: UnmatchedRequest): JsonResult {
    return unmatchedResult(this.routes, request, this.config);
  }

  withCors(result: JsonResult, origin: string | undefined): JsonResult {
    return withCorsHeaders(result, this.config, origin);
  }

  metricsPortResult(): JsonResult {
    return metricsPortResult(this.deps);
  }

  statusPortResult(path: string): JsonResult | undefined {
    return statusPortResult(path, () => this.statusJson());
  }

  openApiDocument(): string {
    // Built on the first request for it, not at start, then kept: the catalogue does not change.
    this.document ??= JSON.stringify(
      buildOpenApiDocument({ catalogue: this.config.catalogue, routes: this.routes }),
    );
    return this.document;
  }

  readiness(): Readiness {
    if (this.isDraining) return { ready: false, reason: 'draining' };
    const { limit, inUse } = this.admission;
    // A full cap refuses the next request with 503: a load balancer should send it elsewhere.
    if (limit > 0 && inUse >= limit) return { ready: false, reason: 'saturated' };
    return { ready: true };
  }

  drain(): void {
    this.isDraining = true;
  }

  replaceKeys(keys: KeyStore, entries: readonly StatusKey[]): void {
    this.deps.keys = keys;
    this.deps.metrics.nameKeys?.(
      entries.flatMap((entry) =>
        typeof entry === 'string' || entry.name === undefined ? [] : [entry.name],
      ),
    );
    this.status.describeKeys(entries);
  }

  statusJson(): string {
    return JSON.stringify(
      this.status.snapshot(this.deps.clock.now(), {
        upstreams: this.deps.upstream.health?.() ?? [],
        requestsInFlight: this.admission.inUse,
        requestsLimit: this.admission.limit,
      }),
    );
  }

  async close(): Promise<void> {
    await Promise.all([this.deps.upstream.close?.(), this.limiter.close?.()]);
  }
}

/**
 * A gateway for a resolved configuration and the ports an app wires: the one object that holds what
 * its requests share (the admission cap, the in-memory limit store, the metrics key, the OpenAPI
 * document) and runs them. Both apps build theirs here and register `routes` with their framework.
 */
export function createGateway(options: CreateGatewayOptions): Gateway {
  return new CoreGateway(options);
}
