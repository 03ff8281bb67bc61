// Temporary (issue 6): @infergate/core's index does not export these yet. Once it does, import them
// from '@infergate/core' and delete this file.
export { routeTable } from '../../../packages/core/src/http/route-table.js';
export { dispatch, envelopeForPath, errorResult } from '../../../packages/core/src/http/dispatch.js';
export { bodyLimitBytes, matchRoute } from '../../../packages/core/src/http/match-route.js';
export { requestIdFor } from '../../../packages/core/src/http/request-id.js';
export { ConfigError, resolveGatewayConfig } from '../../../packages/core/src/config/resolve-gateway-config.js';
export type { ResolvedGatewayConfig } from '../../../packages/core/src/config/resolve-gateway-config.js';
