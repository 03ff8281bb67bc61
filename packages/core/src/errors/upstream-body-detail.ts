import type { z } from 'zod';
import { formatParamPath } from '../schemas/parse-request-body.js';

/**
 * What made an upstream body unreadable, for the 502's `cause` (the warn log line, never the client):
 * the first failing JSON path and zod's wording, e.g. `choices[0].message.content: Invalid input:
 * expected string, received number`. zod's messages name types and expected values, not the input, so
 * no generated text reaches the log.
 */
export function upstreamBodyDetail(error: z.ZodError): { detail: string } {
  const issue = error.issues[0];
  if (issue === undefined) return { detail: 'unreadable body' };
  const path = formatParamPath(issue.path);
  return { detail: `${path.length > 0 ? path : '(body)'}: ${issue.message}` };
}
