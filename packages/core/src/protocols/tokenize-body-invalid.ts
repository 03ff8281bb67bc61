import type { z } from 'zod';
import { GatewayError } from '../errors/gateway-error.js';
import { upstreamBodyIssue } from './upstream-body-issue.js';

/** A `/tokenize` answer of the wrong shape, whatever the protocol: the upstream's failure (502). */
export function tokenizeBodyInvalid(error: z.ZodError): GatewayError {
  return GatewayError.upstreamBodyInvalid(
    'The model server answered with an unexpected tokenize body.',
    upstreamBodyIssue(error),
  );
}
