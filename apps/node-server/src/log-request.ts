import type { FastifyBaseLogger } from 'fastify';
import type { RequestState } from './request-state.js';

export interface RequestLogFacts {
  method: string;
  route: string;
  /** What the client got; 499 when it went away first (DESIGN.md: logged, never sent). */
  status: number;
  durationMs: number;
}

/**
 * The one structured line per request. Only facts: never a body, a prompt, a header value or a key.
 * The request id is already bound to Fastify's per-request logger (label `requestId`).
 */
export function logRequest(logger: FastifyBaseLogger, facts: RequestLogFacts, state: RequestState | undefined): void {
  const meta = state?.meta;
  logger.info(
    {
      method: facts.method,
      route: facts.route,
      operationId: state?.operationId,
      model: meta?.model,
      upstream: meta?.endpoint,
      status: facts.status,
      durationMs: facts.durationMs,
      inputTokens: meta?.inputTokens,
      outputTokens: meta?.outputTokens,
      keyName: meta?.keyName,
    },
    'request',
  );
}
