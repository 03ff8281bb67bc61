import type { GatewayError } from './gateway-error.js';

/** Which error body a route answers with: the completion API's (native) or the embed/rerank API's (compat). */
export type ErrorEnvelope = 'native' | 'compat';

/** `{"error": {"message", "type", "param", "code"}}`, as the widely used completion API answers. */
export function nativeErrorBody(error: GatewayError): string {
  return JSON.stringify({
    error: { message: error.message, type: error.type, param: error.param, code: error.code },
  });
}

/** `{"id", "message"}`, as the embed/rerank API the compat endpoints follow answers. */
export function compatErrorBody(error: GatewayError, requestId: string): string {
  return JSON.stringify({ id: requestId, message: error.message });
}

export function errorBody(error: GatewayError, envelope: ErrorEnvelope, requestId: string): string {
  return envelope === 'compat' ? compatErrorBody(error, requestId) : nativeErrorBody(error);
}
