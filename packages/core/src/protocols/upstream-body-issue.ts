import type { z } from 'zod';
import { formatParamPath } from '../schemas/parse-request-body.js';

/**
 * Where an upstream body failed its schema and why (`choices[0].message.content: Invalid input:
 * expected string, received number`), for the operator's log. zod's messages name expected and
 * received types, never the value, so nothing of the body is repeated.
 */
export function upstreamBodyIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return '(body): invalid';
  const path = formatParamPath(issue.path);
  return `${path.length > 0 ? path : '(body)'}: ${issue.message}`;
}
