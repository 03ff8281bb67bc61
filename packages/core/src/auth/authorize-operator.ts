import { GatewayError } from '../errors/gateway-error.js';
import type { KeyStore } from '../ports/ports.js';
import { bearerToken } from '../http/bearer-token.js';

/**
 * Lets an operator endpoint's caller in, or throws: 401 without a known key, 403
 * `operator_key_required` for an API key that is not marked `operator: true`. `alsoOpens` holds keys
 * that open this endpoint alone (the metrics key on /metrics).
 */
export async function authorizeOperator(
  authorization: string | undefined,
  path: string,
  keys: KeyStore,
  alsoOpens?: KeyStore,
): Promise<void> {
  const token = bearerToken(authorization);
  if (token === undefined) throw GatewayError.unauthorized();
  if (alsoOpens !== undefined && (await alsoOpens.verify(token)) !== undefined) return;
  const identity = await keys.verify(token);
  if (identity === undefined) throw GatewayError.unauthorized();
  if (identity.operator !== true) throw GatewayError.operatorKeyRequired(path);
}
