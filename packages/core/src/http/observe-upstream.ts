import { isUpstreamError } from '../errors/upstream-error.js';
import type { UpstreamPort } from '../handlers/ports.js';

/** What a request's upstream calls showed, for the log line of a failed request. */
export interface UpstreamFacts {
  /** The catalogue id last asked for: a bounded value, never the client's raw string. */
  model?: string;
  /** The configured name of the upstream that answered or failed last. */
  upstream?: string;
  attempts?: number;
}

/**
 * The port a handler gets, noting the model, upstream and attempts of each call in `facts`, so that
 * dispatch can name them when the handler throws (its own result meta is lost with the throw).
 */
export function observeUpstream(port: UpstreamPort, facts: UpstreamFacts): UpstreamPort {
  return {
    target(modelId) {
      facts.model = modelId;
      return port.target(modelId);
    },
    async send(call) {
      facts.model = call.modelId;
      try {
        const response = await port.send(call);
        facts.upstream = response.endpoint;
        facts.attempts = response.attempts;
        return response;
      } catch (error) {
        if (isUpstreamError(error)) {
          facts.upstream = error.upstream;
          facts.attempts = error.attempts;
        }
        throw error;
      }
    },
    ready: () => port.ready(),
  };
}
