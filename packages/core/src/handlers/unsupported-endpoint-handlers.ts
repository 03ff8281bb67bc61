import { GatewayError } from '../errors/gateway-error.js';
import type { RouteHandler } from '../ports/handler-types.js';

/** The stored-data endpoints (docs/design.md): 404 unsupported_endpoint, as the gateway stores no data. */
export const unsupportedEndpointHandler: RouteHandler = async (input) => {
  throw GatewayError.unsupportedEndpoint(input.method, input.path);
};

/** POST /v1/images/variations: listed as unsupported by the spec; it needs no stored data, it is simply not offered. */
export const notOfferedEndpointHandler: RouteHandler = async (input) => {
  throw GatewayError.endpointNotOffered(input.method, input.path);
};

/** POST /document, GET /usage, GET /usage/history: 404 use_master_endpoint naming the master URL. */
export const masterEndpointHandler: RouteHandler = async (input, context) => {
  throw GatewayError.useMasterEndpoint(input.method, input.path, context.config.masterUrl);
};
