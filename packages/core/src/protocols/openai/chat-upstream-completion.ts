import { GatewayError } from '../../errors/gateway-error.js';
import { mapUpstreamStatus } from '../../errors/map-upstream-status.js';
import {
  upstreamChatCompletionSchema,
  type UpstreamChatCompletion,
} from '../../schemas/upstream-chat-completion-schema.js';
import { upstreamBodyIssue } from '../upstream-body-issue.js';

/**
 * The body of a 2xx upstream chat answer, or the GatewayError it amounts to: vLLM can answer an
 * error envelope with status 200, and anything without choices is a failed upstream.
 */
export function readUpstreamChatCompletion(body: unknown): UpstreamChatCompletion {
  if (
    typeof body === 'object' &&
    body !== null &&
    'error' in body &&
    (body as { error: unknown }).error != null
  ) {
    const error = (body as { error: unknown }).error;
    const code =
      typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    const status = typeof code === 'number' && code >= 400 && code <= 599 ? code : 502;
    throw mapUpstreamStatus(status, body, undefined);
  }
  const result = upstreamChatCompletionSchema.safeParse(body);
  if (!result.success)
    throw GatewayError.upstreamBodyInvalid(
      'The model server answered with an unexpected body.',
      upstreamBodyIssue(result.error),
    );
  return result.data;
}
