import type { FastifyBaseLogger } from 'fastify';
import { failureLogFields } from '@infergate/core';
import type { RequestState } from './request-state.js';

export interface RequestLogFacts {
  requestId: string;
  method: string;
  route: string;
  /** What the client got; 499 when it went away first (DESIGN.md: logged, never sent). */
  status: number;
  durationMs: number;
}

/**
 * The one structured line per request. Only facts: never a body, a prompt, a header value or a key.
 * The line names its request id itself (see requestLog in build-server.ts). A 5xx is the
 * same line at warn level with why: the upstream's configured name (never its URL), the attempts and
 * the cause (with the upstream's status, or the JSON path of a body that failed), so an operator can
 * tell a dead model server from a misbehaving one without turning on debug.
 */
export function logRequest(logger: FastifyBaseLogger, facts: RequestLogFacts, state: RequestState | undefined): void {
  const meta = state?.meta;
  const line = {
    requestId: facts.requestId,
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
  };
  if (facts.status < 500) {
    logger.info(line, 'request');
    return;
  }
  logger.warn(Object.assign(line, failureLogFields(meta ?? {})), 'request');
}
