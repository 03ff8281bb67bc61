import { GatewayError } from '../errors/gateway-error.js';
import type { UpstreamTarget } from '../ports/ports.js';
import { protocolAdapters } from './protocol-adapters.js';
import type { ProtocolOperationName, UpstreamProtocolAdapter } from './upstream-protocol.js';

/** A model configured on an upstream whose protocol cannot serve the endpoint: the operator's mistake, not the client's. */
export function unsupportedUpstreamProtocol(modelId: string, protocol: string): GatewayError {
  return GatewayError.upstreamFailed(
    `The model server configured for '${modelId}' speaks the ${protocol} protocol, which cannot serve this endpoint.`,
  );
}

/** The target protocol's `name` operation; a 502 naming the protocol when it has none. */
export function operationFor<Name extends ProtocolOperationName>(
  target: UpstreamTarget,
  modelId: string,
  name: Name,
): NonNullable<UpstreamProtocolAdapter[Name]> {
  const operation = protocolAdapters[target.protocol][name];
  if (operation === undefined) throw unsupportedUpstreamProtocol(modelId, target.protocol);
  return operation as NonNullable<UpstreamProtocolAdapter[Name]>;
}
