import { Validator } from '@seriousme/openapi-schema-validator';
import { routeTable } from '@infergate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeGateway, type NodeGateway } from './start-node-gateway.js';

interface DocumentedOperation {
  operationId: string;
  security?: unknown[];
  parameters?: Array<{ name: string; in: string; example?: string }>;
  requestBody?: {
    content: { 'application/json': { examples: Record<string, { value: unknown }> } };
  };
  responses: Record<string, unknown>;
  tags: string[];
}

type OpenApiPaths = Record<string, Record<string, DocumentedOperation>>;

let gateway: NodeGateway;
let document: { openapi: string; info: { description: string }; paths: OpenApiPaths };
// An operator key: an API key that also opens the operator endpoints (/metrics, /upstreamz).
const operatorKey = 'ig-openapi-ops-0123456789abcdef012345';

beforeAll(async () => {
  gateway = await startNodeGateway({ keys: [{ key: operatorKey, name: 'ops', operator: true }] });
  const response = await fetch(`${gateway.baseUrl}/openapi.json`);
  expect(response.status).toBe(200);
  document = (await response.json()) as typeof document;
});

afterAll(async () => {
  await gateway.close();
});

const operations = (): Array<[string, string, DocumentedOperation]> =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]): [string, string, DocumentedOperation] => [
      method.toUpperCase(),
      path,
      operation,
    ]),
  );

/** `METHOD /path` of each row of the description's section on the endpoints the gateway does not serve. */
const notServedEndpoints = (): string[] =>
  [
    ...document.info.description
      .split('## Endpoints this gateway does not serve')[1]!
      .matchAll(/^\| `([A-Z]+ \S+)` \| 404 /gm),
  ].map((match) => match[1] as string);

describe('GET /openapi.json on the node-server', () => {
  it('is served without a key and validates as OpenAPI 3.1 with a standard validator', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("covers every route of core's table: each served one as an operation, the not-served ones in one section, the page's own left out", () => {
    const documented = operations().map(
      ([method, path, operation]) => `${method} ${path} ${operation.operationId}`,
    );
    const notServed = notServedEndpoints().map((endpoint) => `${endpoint} `);
    const pageRoutes = [
      'GET / redirectToDocs',
      'GET /docs/assets/reference.js getDocsScript',
      'GET /status/script.js getStatusScript',
    ];
    const table = routeTable.map((route) => `${route.method} ${route.path} ${route.operationId}`);
    expect([...documented, ...pageRoutes].sort()).toEqual(
      table.filter((entry) => !notServed.some((prefix) => entry.startsWith(prefix))).sort(),
    );
    expect(notServed.length + documented.length + pageRoutes.length).toBe(table.length);
  });

  it('has a request built from each documented example accepted by the running server', async () => {
    const checked: string[] = [];
    for (const [method, path, operation] of operations()) {
      const url = `${gateway.baseUrl}${path.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeURIComponent(operation.parameters?.find((parameter) => parameter.name === name)?.example ?? 'missing-example'))}`;
      const headers: Record<string, string> = { authorization: `Bearer ${operatorKey}` };
      const examples =
        operation.requestBody === undefined
          ? [undefined]
          : Object.values(operation.requestBody.content['application/json'].examples).map(
              (example) => example.value,
            );
      expect(examples.length, `${method} ${path}`).toBeGreaterThan(0);
      for (const body of examples) {
        const response = await fetch(
          url,
          body === undefined
            ? { method, headers }
            : {
                method,
                headers: { ...headers, 'content-type': 'application/json' },
                body: JSON.stringify(body),
              },
        );
        const text = await response.text();
        expect(
          [400, 404, 405, 415],
          `${method} ${path}: ${response.status} ${text.slice(0, 300)}`,
        ).not.toContain(response.status);
        expect(response.status, `${method} ${path}: ${text.slice(0, 300)}`).toBeLessThan(300);
        checked.push(operation.operationId);
      }
    }
    // Every model-calling endpoint was exercised, with each of its examples.
    expect(checked).toEqual(
      expect.arrayContaining([
        'createResponse',
        'createChatCompletion',
        'createEmbedding',
        'compatEmbed',
        'compatRerank',
        'createImage',
        'createImageEdit',
        'tokenize',
        'retrieveModel',
      ]),
    );
    // Every example, images and text generation among them, one after another through the local
    // backend: the timeout bounds a hang on a loaded machine.
  }, 120_000);

  it('documents the unsupported endpoints as the 404 they answer', async () => {
    const unsupported = notServedEndpoints().map(
      (endpoint) => endpoint.split(' ') as [string, string],
    );
    expect(unsupported).toHaveLength(14);
    for (const [method, path] of unsupported) {
      const response = await fetch(`${gateway.baseUrl}${path.replace(/\{[^}]+\}/g, 'x1')}`, {
        method,
        headers: { authorization: `Bearer ${gateway.apiKey}` },
      });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
  });
});

describe('GET /docs on the node-server', () => {
  it('serves the reference page and its script without a key, loading nothing from another host', async () => {
    const page = await fetch(`${gateway.baseUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
    const html = await page.text();
    expect(html).toContain('src="docs/assets/reference.js"');
    expect(html).not.toMatch(/https?:\/\//);
    const script = await fetch(`${gateway.baseUrl}/docs/assets/reference.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await script.text()).length).toBeGreaterThan(100_000);
  });

  it('redirects GET / to the page, without a key', async () => {
    const root = await fetch(`${gateway.baseUrl}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/docs');
    const followed = await fetch(`${gateway.baseUrl}/`);
    expect([followed.status, followed.url]).toEqual([200, `${gateway.baseUrl}/docs`]);
    expect(followed.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('answers 404 for the document, the page, the script and the root with docs switched off', async () => {
    const off = await startNodeGateway({ docs: { enabled: false } });
    try {
      for (const path of ['/openapi.json', '/docs', '/docs/assets/reference.js', '/']) {
        const response = await fetch(`${off.baseUrl}${path}`);
        expect(response.status, path).toBe(404);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
          'not_found',
        );
      }
    } finally {
      await off.close();
    }
  });
});
