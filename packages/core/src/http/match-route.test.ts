import { describe, expect, it } from 'vitest';
import { resolveGatewayConfig } from '../config/resolve-gateway-config.js';
import { isGatewayError } from '../errors/gateway-error.js';
import type { GatewayError } from '../errors/gateway-error.js';
import type { RouteDefinition } from '../ports/handler-types.js';
import { bodyLimitBytes, matchRoute } from './match-route.js';
import type { RouteMatch } from './match-route.js';

const handler: RouteDefinition['handler'] = () => Promise.reject(new Error('not called'));

function route(
  method: RouteDefinition['method'],
  path: string,
  operationId: string,
  bodyLimit: RouteDefinition['bodyLimit'] = 'none',
): RouteDefinition {
  return {
    method,
    path,
    operationId,
    auth: true,
    bodyLimit,
    envelope: 'native',
    handler,
    contract: { answers: 'errors' },
  };
}

const table: readonly RouteDefinition[] = [
  route('POST', '/v1/responses', 'createResponse', 'image'),
  route('GET', '/v1/responses/{id}', 'getResponse'),
  route('DELETE', '/v1/responses/{id}', 'deleteResponse'),
  // Listed before the literal route it overlaps, so that specificity, not order, has to decide.
  route('POST', '/v1/responses/{id}', 'updateResponse'),
  route('POST', '/v1/responses/compact', 'compactResponse'),
  route('POST', '/v1/responses/{id}/cancel', 'cancelResponse'),
  route('GET', '/v1/models/{id}', 'retrieveModel'),
  route('POST', '/tokenize', 'tokenize', 'json'),
];

function found(result: RouteMatch | GatewayError): RouteMatch {
  if (isGatewayError(result)) throw new Error(`expected a match, got ${result.status}`);
  return result;
}

function failed(result: RouteMatch | GatewayError): GatewayError {
  if (!isGatewayError(result))
    throw new Error(`expected an error, got ${result.route.operationId}`);
  return result;
}

describe('matchRoute', () => {
  it('matches a literal path', () => {
    expect(found(matchRoute(table, 'POST', '/v1/responses')).route.operationId).toBe(
      'createResponse',
    );
  });

  it('reads {name} parameters, URL-decoded', () => {
    const match = found(matchRoute(table, 'GET', '/v1/models/general%2Dstd'));
    expect(match.route.operationId).toBe('retrieveModel');
    expect(match.params).toEqual({ id: 'general-std' });
    expect(found(matchRoute(table, 'POST', '/v1/responses/resp_1/cancel')).params).toEqual({
      id: 'resp_1',
    });
  });

  it('prefers a literal segment over a parameter', () => {
    expect(found(matchRoute(table, 'POST', '/v1/responses/compact')).route.operationId).toBe(
      'compactResponse',
    );
    expect(found(matchRoute(table, 'POST', '/v1/responses/resp_9')).route.operationId).toBe(
      'updateResponse',
    );
  });

  it('accepts a lower-case method', () => {
    expect(found(matchRoute(table, 'get', '/v1/responses/resp_1')).route.operationId).toBe(
      'getResponse',
    );
  });

  it('answers 404 not_found for an unknown path, an empty parameter or a trailing slash', () => {
    for (const path of ['/v2/responses', '/v1/models/', '/tokenize/', '/v1/responses/a/b/c']) {
      const error = failed(matchRoute(table, 'GET', path));
      expect(error.status).toBe(404);
      expect(error.code).toBe('not_found');
    }
  });

  it('answers 405 with Allow when the path exists with other methods', () => {
    const error = failed(matchRoute(table, 'PUT', '/v1/responses/resp_1'));
    expect(error.status).toBe(405);
    expect(error.headers.allow).toBe('GET, HEAD, DELETE, POST');
    expect(failed(matchRoute(table, 'GET', '/tokenize')).headers.allow).toBe('POST');
  });

  it('takes HEAD to the GET route of its path, and lists HEAD in Allow wherever GET is', () => {
    const match = found(matchRoute(table, 'HEAD', '/v1/models/general-std'));
    expect([match.route.operationId, match.params]).toEqual([
      'retrieveModel',
      { id: 'general-std' },
    ]);
    expect(failed(matchRoute(table, 'DELETE', '/v1/models/m')).headers.allow).toBe('GET, HEAD');
    // No GET on the path: HEAD is refused like any other method, and not listed.
    const head = failed(matchRoute(table, 'HEAD', '/tokenize'));
    expect([head.status, head.headers.allow]).toEqual([405, 'POST']);
  });

  it('does not throw on a malformed escape', () => {
    expect(failed(matchRoute(table, 'GET', '/v1/models/%E0%A4%A')).status).toBe(404);
  });
});

describe('bodyLimitBytes', () => {
  const config = resolveGatewayConfig(
    { limits: { body_json_bytes: 10, body_image_bytes: 20 } },
    {},
  );

  it('is the JSON limit, the image limit, or 0 for routes without a body', () => {
    expect(bodyLimitBytes(route('POST', '/t', 't', 'json'), config)).toBe(10);
    expect(bodyLimitBytes(route('POST', '/t', 't', 'image'), config)).toBe(20);
    expect(bodyLimitBytes(route('GET', '/t', 't', 'none'), config)).toBe(0);
  });
});
