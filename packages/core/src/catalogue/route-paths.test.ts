import { describe, expect, it } from 'vitest';
import type { Endpoint } from './catalogue-types.js';
import { endpointsForKind } from '../config/extend-catalogue.js';
import { operationDocs, surfaceDocs } from '../openapi/operation-docs.js';
import { endpointRoutes } from './route-paths.js';
import { routeTable } from '../gateway/route-table.js';

// endpointRoutes is the one list of endpoints; the tables below cannot be derived from it (they hold
// handlers, kinds and prose), so these tests name whatever one of them lacks or has left over.
const endpoints = Object.keys(endpointRoutes) as Endpoint[];

describe('endpointRoutes and the tables beside it', () => {
  it('has each endpoint served by exactly one route of route-table.ts at its method and path', () => {
    // Other routes may take the same models (/v1/messages answers with the models that serve chat).
    const notServedOnce = endpoints.filter((served) => {
      const { method, path } = endpointRoutes[served];
      const routes = routeTable.filter(
        (route) =>
          route.contract.answers === 'json' &&
          route.contract.endpoint === served &&
          route.method === method &&
          route.path === path,
      );
      return routes.length !== 1;
    });
    expect(notServedOnce, 'endpoints without exactly one route in route-table.ts').toEqual([]);
  });

  it('lets some model kind serve each endpoint', () => {
    const served = new Set(Object.values(endpointsForKind).flat());
    expect(
      endpoints.filter((endpoint) => !served.has(endpoint)),
      'endpoints missing from endpointsForKind (config/extend-catalogue.ts)',
    ).toEqual([]);
  });

  it('documents only operations the route table has', () => {
    const operations = new Set(routeTable.map((route) => route.operationId));
    expect(
      [...Object.keys(operationDocs), ...Object.keys(surfaceDocs)].filter(
        (operationId) => !operations.has(operationId),
      ),
      'entries of openapi/operation-docs.ts that name no route',
    ).toEqual([]);
  });
});
