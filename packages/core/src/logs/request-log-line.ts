import { failureLogFields } from '../errors/failure-facts.js';
import type { ResultMeta } from '../ports/handler-types.js';
import { formatCost } from '../config/request-cost.js';

/** What an app knows of a request when it is over. */
export interface RequestLogFacts {
  requestId: string;
  /** Undefined when the request line itself could not be read. */
  method: string | undefined;
  /** The route table's path (`/v1/models/{id}`), or `unmatched`. */
  route: string;
  /** The route's operation id, when a route was matched. */
  operationId?: string | undefined;
  /** What the client got; 499 when it went away first (logged, never sent). */
  status: number;
  /** Undefined when the request never got as far as a request (a header timeout). */
  durationMs?: number | undefined;
  meta?: ResultMeta | undefined;
}

export type LogLevelName = 'info' | 'warn' | 'error';

export interface RequestLogLine {
  level: LogLevelName;
  /** The line's fields, the message (`request`) apart. */
  fields: Record<string, unknown>;
}

// A client that went away is not a refusal: it chose to leave.
const clientClosedRequest = 499;

/**
 * The one structured line per request both apps write. Only facts: never a body, a prompt, a header
 * value or a key. The level says what happened: info for an answer, warn for a refusal or a failure
 * the gateway expects (4xx, 502, 503, 504, with why on a 5xx: the upstream's configured name, never
 * its URL, the attempts and the cause), error for a 500, a failure nobody expected.
 */
export function requestLogLine(facts: RequestLogFacts): RequestLogLine {
  const { meta, status } = facts;
  const fields: Record<string, unknown> = {
    requestId: facts.requestId,
    method: facts.method,
    route: facts.route,
    operationId: facts.operationId,
    model: meta?.model,
    upstream: meta?.endpoint,
    status,
    durationMs: facts.durationMs,
    inputTokens: meta?.inputTokens,
    outputTokens: meta?.outputTokens,
    keyName: meta?.keyName,
  };
  // A virtual model's list: the models left before the one that answered (or failed last), and why.
  if (meta?.fallbacks !== undefined) fields.fallbacks = meta.fallbacks;
  // At the configured prices, as the x-infergate-cost header says it (`0.0001234 USD`).
  const cost = meta?.cost === undefined ? undefined : formatCost(meta.cost);
  if (cost !== undefined) fields.cost = cost;
  if (status < 400 || status === clientClosedRequest) return { level: 'info', fields };
  if (status < 500) return { level: 'warn', fields };
  return {
    level: status === 500 ? 'error' : 'warn',
    fields: Object.assign(fields, failureLogFields(meta ?? {})),
  };
}
