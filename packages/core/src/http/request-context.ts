import type { FallbackChain } from '../catalogue/fallback-chain.js';
import type { GatewayConfig } from '../config/gateway-config.js';
import { isUpstreamError } from '../errors/upstream-error.js';
import type {
  ApiKeyIdentity,
  Clock,
  IdSource,
  KeyStore,
  MetricsSink,
  UpstreamCall,
  UpstreamHealth,
  UpstreamPort,
  UpstreamResponse,
  UpstreamTarget,
} from '../ports/ports.js';
import type {
  DocsAssets,
  GatewayDeps,
  GatewayShared,
  HandlerContext,
} from '../ports/handler-types.js';

/** The gateway as a request's context reads it: its ports, configuration and shared state. */
export interface ContextSource extends GatewayShared {
  readonly deps: GatewayDeps;
}

/**
 * The context one request's handler runs with. It is also the upstream port the handler calls, so
 * that the model, upstream and attempts of its calls are noted for the log line of a failed request
 * (a handler that throws loses its result meta) without a wrapper port and closures per request.
 */
export class RequestContext implements HandlerContext, UpstreamPort {
  identity: ApiKeyIdentity | undefined = undefined;
  /** The catalogue id last asked for: a bounded value, never the client's raw string. */
  model: string | undefined = undefined;
  /** The configured name of the upstream that answered or failed last. */
  endpoint: string | undefined = undefined;
  attempts: number | undefined = undefined;
  fallback: FallbackChain | undefined = undefined;

  constructor(readonly gateway: ContextSource) {}

  get config(): GatewayConfig {
    return this.gateway.deps.config;
  }

  get upstream(): UpstreamPort {
    return this;
  }

  get keys(): KeyStore {
    return this.gateway.deps.keys;
  }

  get clock(): Clock {
    return this.gateway.deps.clock;
  }

  get ids(): IdSource {
    return this.gateway.deps.ids;
  }

  get metrics(): MetricsSink {
    return this.gateway.deps.metrics;
  }

  get docsAssets(): DocsAssets | undefined {
    return this.gateway.deps.docsAssets;
  }

  get draining(): (() => boolean) | undefined {
    return this.gateway.deps.draining;
  }

  target(modelId: string): UpstreamTarget | undefined {
    this.model = modelId;
    return this.gateway.deps.upstream.target(modelId);
  }

  async send(call: UpstreamCall): Promise<UpstreamResponse> {
    this.model = call.modelId;
    try {
      const response = await this.gateway.deps.upstream.send(call);
      this.endpoint = response.endpoint;
      this.attempts = response.attempts;
      return response;
    } catch (error) {
      if (isUpstreamError(error)) {
        this.endpoint = error.upstream;
        this.attempts = error.attempts;
      }
      throw error;
    }
  }

  health(): readonly UpstreamHealth[] {
    return this.gateway.deps.upstream.health?.() ?? [];
  }
}
