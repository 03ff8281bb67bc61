import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../catalogue/default-catalogue.js';
import { extendCatalogue } from '../config/extend-catalogue.js';
import { routeTable } from '../gateway/route-table.js';
import { buildOpenApiDocument, modelIdsFor } from './build-openapi-document.js';
import type { JsonSchema } from '../schemas/json-schema.js';
import { operationDocs } from './operation-docs.js';

const document = buildOpenApiDocument({ catalogue: defaultCatalogue, routes: routeTable });
const operation = (method: string, path: string): JsonSchema =>
  document.paths[path]?.[method] as JsonSchema;

describe('buildOpenApiDocument', () => {
  it('is OpenAPI 3.1 with bearer auth and the three error envelopes', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    const components = document.components as {
      securitySchemes: JsonSchema;
      schemas: Record<string, JsonSchema>;
    };
    expect(components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(components.schemas)).toEqual([
      'NativeError',
      'CompatError',
      'AnthropicError',
    ]);
  });

  it('documents every route the gateway serves once, under its operation id; the not-served ones in one section', () => {
    const description = String((document.info as JsonSchema).description);
    const pageRoutes = ['redirectToDocs', 'getDocsScript', 'getStatusScript'];
    let documented = 0;
    for (const route of routeTable) {
      const entry = operation(route.method.toLowerCase(), route.path);
      const listedAsNotServed = description.includes(`| \`${route.method} ${route.path}\` | 404 `);
      if (pageRoutes.includes(route.operationId)) expect(entry, route.operationId).toBeUndefined();
      else if (listedAsNotServed) expect(entry, `${route.method} ${route.path}`).toBeUndefined();
      else {
        expect(entry?.operationId, `${route.method} ${route.path}`).toBe(route.operationId);
        documented += 1;
      }
    }
    const count = Object.values(document.paths).reduce(
      (sum, methods) => sum + Object.keys(methods).length,
      0,
    );
    expect(count).toBe(documented);
    expect(description).toContain('## Endpoints this gateway does not serve');
    // The reference page lists each not-served endpoint once, not as an operation of its own.
    expect(description.match(/^\| `(GET|POST|DELETE) /gm)).toHaveLength(
      routeTable.length - documented - pageRoutes.length,
    );
  });

  it('answers compat errors in the compat envelope and native errors in the native one', () => {
    const rerank = operation('post', '/compat/v2/rerank').responses as Record<string, JsonSchema>;
    expect(JSON.stringify(rerank['400'])).toContain('#/components/schemas/CompatError');
    const chat = operation('post', '/v1/chat/completions').responses as Record<string, JsonSchema>;
    expect(JSON.stringify(chat['401'])).toContain('#/components/schemas/NativeError');
  });

  it("answers the Messages API's errors in its envelope, with 529 for the gateway at capacity", () => {
    for (const path of ['/v1/messages', '/v1/messages/count_tokens']) {
      const responses = operation('post', path).responses as Record<string, JsonSchema>;
      expect(JSON.stringify(responses['400'])).toContain('#/components/schemas/AnthropicError');
      expect(responses['529']).toBeDefined();
    }
  });

  it('lists the catalogue and virtual ids that serve each endpoint as the model enum', () => {
    const chat = modelIdsFor(defaultCatalogue, 'chat');
    expect(chat).toEqual(
      expect.arrayContaining([
        'beta53-flash-chat',
        'alpha36-35b-a3b-instruct',
        'general-std',
        'coding-max',
      ]),
    );
    expect(chat).not.toContain('gamma-m3');
    expect(modelIdsFor(defaultCatalogue, 'compat-embed')).toEqual(['alpha3-vl-embedding-8b']);
    const schema = (
      (operation('post', '/v1/embeddings').requestBody as JsonSchema).content as Record<
        string,
        { schema: { properties: Record<string, JsonSchema> } }
      >
    )['application/json']?.schema;
    expect(schema?.properties.model?.enum).toEqual(['alpha3-vl-embedding-8b', 'gamma-m3']);
  });

  it('documents the multipart form of image edits beside the JSON form, files in place of images and mask', () => {
    const content = (operation('post', '/v1/images/edits').requestBody as JsonSchema)
      .content as Record<string, { schema: JsonSchema }>;
    expect(Object.keys(content)).toEqual(['application/json', 'multipart/form-data']);
    const form = content['multipart/form-data']?.schema as {
      properties: Record<string, JsonSchema>;
      required: string[];
    };
    expect(form.properties.image).toMatchObject({ type: 'string', format: 'binary' });
    expect(form.properties['image[]']).toMatchObject({ type: 'array', maxItems: 16 });
    expect(form.properties.mask).toMatchObject({ format: 'binary' });
    expect(form.properties.images).toBeUndefined();
    expect(form.properties.model?.enum).toContain('alpha-image-edit');
    expect(form.properties.n).toBeDefined();
    expect(form.required).toEqual(expect.arrayContaining(['prompt', 'model', 'size']));
    expect(form.required).not.toContain('images');
    const chat = (operation('post', '/v1/chat/completions').requestBody as JsonSchema).content;
    expect(Object.keys(chat as object)).toEqual(['application/json']);
  });

  it("shows a virtual model's list on the endpoints it serves", () => {
    const catalogue = extendCatalogue(defaultCatalogue, undefined, {
      'team-default': {
        models: ['alpha36-35b-a3b-instruct', 'alpha35-122b-a10b-instruct-general'],
      },
    });
    const withList = buildOpenApiDocument({ catalogue, routes: routeTable });
    const modelOf = (path: string): JsonSchema | undefined =>
      (
        ((withList.paths[path]?.post as JsonSchema).requestBody as JsonSchema).content as Record<
          string,
          { schema: { properties: Record<string, JsonSchema> } }
        >
      )['application/json']?.schema.properties.model;
    expect(modelOf('/v1/chat/completions')?.enum).toContain('team-default');
    expect(String(modelOf('/v1/chat/completions')?.description)).toContain(
      '`team-default`: `alpha36-35b-a3b-instruct`, then `alpha35-122b-a10b-instruct-general`',
    );
    expect(String(modelOf('/v1/embeddings')?.description)).not.toContain('team-default');
  });

  it('keeps the request schemas strict and describes string-or-array fields by their forms', () => {
    const schema = (
      (operation('post', '/v1/chat/completions').requestBody as JsonSchema).content as Record<
        string,
        { schema: JsonSchema }
      >
    )['application/json']?.schema as JsonSchema;
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(['model', 'messages']);
    const user = JSON.stringify(schema.properties);
    expect(user).toContain('"anyOf":[{"type":"string"},{"type":"array"');
    expect(user).not.toContain('9007199254740991');
  });

  it('gives every model-calling operation examples its own schema accepts', () => {
    for (const { operationId, contract } of routeTable) {
      if (contract.answers !== 'json' || contract.request === undefined) continue;
      const examples = Object.values(operationDocs[operationId]?.examples ?? {});
      expect(examples.length, operationId).toBeGreaterThan(0);
      for (const example of examples)
        expect(
          contract.request.safeParse(example.value).success,
          `${operationId}: ${example.summary}`,
        ).toBe(true);
    }
  });

  it('carries code samples for curl, the OpenAI and Cohere clients and @infergate/sdk', () => {
    const labels = (method: string, path: string) =>
      (operation(method, path)['x-codeSamples'] as Array<{ label: string }>).map(
        (sample) => sample.label,
      );
    expect(labels('post', '/v1/chat/completions')).toEqual([
      'curl',
      'OpenAI Python',
      'OpenAI Node',
      '@infergate/sdk',
    ]);
    expect(labels('post', '/compat/v2/rerank')).toEqual([
      'curl',
      'Cohere Python',
      'Cohere TypeScript',
      '@infergate/sdk',
    ]);
    const cohere = (
      operation('post', '/compat/v2/embed')['x-codeSamples'] as Array<{
        label: string;
        source: string;
      }>
    ).find((sample) => sample.label === 'Cohere TypeScript');
    expect(cohere?.source).toContain('"inputType": "search_document"');
    const python = (
      operation('post', '/v1/chat/completions')['x-codeSamples'] as Array<{
        label: string;
        source: string;
      }>
    )[1]?.source;
    expect(python).toContain('model="general-std"');
  });

  it("documents each route's contract: the response forms, and the stream events of the streaming endpoints", () => {
    const responses = operation('post', '/v1/responses').responses as Record<
      string,
      { content: Record<string, JsonSchema> }
    >;
    const forms = (responses['200']?.content['application/json']?.schema as { oneOf: JsonSchema[] })
      .oneOf;
    expect(forms.map((form) => form.title)).toEqual(['Response', 'ResponseImageInputForm']);
    expect(
      JSON.stringify(responses['200']?.content['text/event-stream']?.['x-itemSchema']),
    ).toContain('response.output_text.delta');
    const chat = operation('post', '/v1/chat/completions').responses as Record<
      string,
      { content: Record<string, JsonSchema> }
    >;
    expect(JSON.stringify(chat['200']?.content['text/event-stream']?.['x-itemSchema'])).toContain(
      'chat.completion.chunk',
    );
    expect(
      Object.keys(
        (operation('post', '/v1/embeddings').responses as Record<string, { content: JsonSchema }>)[
          '200'
        ]?.content ?? {},
      ),
    ).toEqual(['application/json']);
    expect(Object.keys(operation('get', '/readyz').responses as JsonSchema)).toEqual([
      '200',
      '503',
    ]);
  });

  it('marks the public routes and documents the unsupported ones as 404', () => {
    expect(operation('get', '/openapi.json').security).toEqual([]);
    expect(operation('get', '/healthz').security).toEqual([]);
    expect(operation('get', '/metrics').security).toBeUndefined();
    expect(String((document.info as JsonSchema).description)).toContain(
      '| `GET /v1/responses/{id}` | 404 `unsupported_endpoint`',
    );
  });
});
