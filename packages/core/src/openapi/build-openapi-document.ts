import { z } from 'zod';
import type { Catalogue, Endpoint } from '../catalogue/catalogue-types.js';
import { anthropicErrorSchema } from '../contracts/messages-schemas.js';
import { compatErrorSchema, nativeErrorSchema } from '../contracts/response-schemas.js';
import type { ErrorEnvelope } from '../errors/error-envelopes.js';
import {
  masterEndpointHandler,
  notOfferedEndpointHandler,
  unsupportedEndpointHandler,
} from '../handlers/unsupported-endpoint-handlers.js';
import type { RouteContract, RouteDefinition } from '../ports/handler-types.js';
import { codeSamples } from './code-samples.js';
import { formRequestSchema } from './form-request-schema.js';
import type { JsonSchema } from '../schemas/json-schema.js';
import { operationDocs, surfaceDocs } from './operation-docs.js';
import { requestJsonSchema, responseJsonSchema } from './request-json-schema.js';

export interface OpenApiDocumentOptions {
  /** The catalogue whose ids the `model` fields list: the running gateway's, with its configured extras. */
  catalogue: Catalogue;
  /** The routes to document, with their contracts: core's `routeTable`. */
  routes: readonly RouteDefinition[];
  /** `servers[0].url`; `/` (the origin serving the document) by default. */
  serverUrl?: string;
}

export type OpenApiDocument = JsonSchema & { paths: Record<string, Record<string, JsonSchema>> };

const errorText: Readonly<Record<number, string>> = {
  400: 'Invalid request: `param` names the field at fault (e.g. `messages[2].content`); `model_not_supported` for a model used on the wrong endpoint.',
  401: 'Missing or unknown API key.',
  403: 'The key may not use this model.',
  404: 'Unknown model (`model_not_found`), or an endpoint this gateway does not serve.',
  413: 'The body exceeds the limit of this endpoint (2 MiB for JSON-only routes, 100 MiB for image-bearing routes, by default).',
  415: 'Content-Type is not application/json (or multipart/form-data, where the route takes a form), or the body is compressed (a Content-Encoding other than identity).',
  429: "Over one of the key's limits (`rate_limit_exceeded`), its budget spent until the period ends (`budget_exceeded`), or the upstream's 429 passed through; see Retry-After.",
  501: "The model's server does not offer tokenization (it has no tokenizer route, or its upstream is configured with `tokenize: false`).",
  502: 'The model server failed.',
  503: 'Overloaded, no healthy model server, or the model is not configured; see Retry-After.',
  504: 'The model server did not answer in time.',
  529: 'The gateway is at capacity (the Messages API says overloaded with 529); see Retry-After.',
};

const errorComponents: Readonly<Record<ErrorEnvelope, string>> = {
  native: 'NativeError',
  compat: 'CompatError',
  anthropic: 'AnthropicError',
};

const modelCallStatuses = [400, 401, 403, 404, 413, 415, 429, 502, 503, 504];

function errorResponses(
  route: RouteDefinition,
  statuses: readonly number[],
): Record<string, JsonSchema> {
  const schema = {
    $ref: `#/components/schemas/${errorComponents[route.envelope]}`,
  };
  const answered =
    route.envelope === 'anthropic' && statuses.includes(503) ? [...statuses, 529] : statuses;
  return Object.fromEntries(
    answered.map((status) => [
      String(status),
      { description: errorText[status] ?? 'Error.', content: { 'application/json': { schema } } },
    ]),
  );
}

/** Catalogue ids that serve `endpoint`, then the virtual ids that map onto one of them. */
export function modelIdsFor(catalogue: Catalogue, endpoint: Endpoint): string[] {
  const ids = [...catalogue.models.values()]
    .filter((entry) => entry.serves.includes(endpoint))
    .map((entry) => entry.id);
  const served = new Set(ids);
  for (const [virtualId, target] of catalogue.virtualModels)
    if (served.has(target)) ids.push(virtualId);
  return ids;
}

/** The virtual models with a list that `endpoint` takes, each with the order its models are tried in. */
function fallbackLines(catalogue: Catalogue, endpoint: Endpoint): string {
  const lines: string[] = [];
  for (const [id, route] of catalogue.virtualRoutes) {
    const first = catalogue.models.get(route.models[0] as string);
    if (first?.serves.includes(endpoint) === true)
      lines.push(`\n- \`${id}\`: ${route.models.map((model) => `\`${model}\``).join(', then ')}`);
  }
  return lines.length === 0
    ? ''
    : `\n\nVirtual models that fall back to the next model when one fails:${lines.join('')}`;
}

type JsonContract = Extract<RouteContract, { answers: 'json' }>;

function requestBodySchema(
  contract: JsonContract,
  request: z.ZodType,
  catalogue: Catalogue,
): JsonSchema {
  const schema = requestJsonSchema(request);
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (properties?.model !== undefined && contract.endpoint !== undefined) {
    properties.model = {
      type: 'string',
      enum: modelIdsFor(catalogue, contract.endpoint),
      description: `A catalogue model id or a virtual model id (GET /v1/models lists them with what each maps to).${fallbackLines(catalogue, contract.endpoint)}`,
    };
  }
  return schema;
}

/** A top-level union of response forms is documented as oneOf: exactly one form is answered. */
function bodySchema(schema: z.ZodType): JsonSchema {
  return schema instanceof z.ZodUnion
    ? {
        oneOf: (schema.options as readonly z.ZodType[]).map((option) => responseJsonSchema(option)),
      }
    : responseJsonSchema(schema);
}

function successResponse(contract: JsonContract): JsonSchema {
  const content: Record<string, JsonSchema> = {
    'application/json': { schema: bodySchema(contract.response) },
  };
  if (contract.events !== undefined) {
    content['text/event-stream'] = {
      schema: {
        type: 'string',
        description:
          "Server-sent events, with `stream: true`. Each event's `data` is JSON of `x-itemSchema`.",
      },
      // OpenAPI 3.2's itemSchema; 3.1 takes only x- extensions in a media type.
      'x-itemSchema': bodySchema(contract.events),
    };
  }
  return { description: 'Success.', content };
}

function pathParameters(
  route: RouteDefinition,
  doc: (typeof operationDocs)[string] | undefined,
): JsonSchema[] {
  return [...route.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
    ...(doc?.pathExample?.[name as string] !== undefined
      ? { example: doc.pathExample[name as string] }
      : {}),
  }));
}

function fillPath(path: string, values: Readonly<Record<string, string>> | undefined): string {
  return path.replace(/\{([^}]+)\}/g, (_match, name: string) =>
    encodeURIComponent(values?.[name] ?? 'example'),
  );
}

type NotServed = 'stored-data' | 'not-offered' | 'master-only';

const notServedAnswers: Record<NotServed, string> = {
  'stored-data':
    '404 `unsupported_endpoint`: the gateway stores no responses or completions to read back or change.',
  'not-offered': '404 `unsupported_endpoint`: not offered by this gateway.',
  'master-only':
    '404 `use_master_endpoint`: call it at the configured master URL with the master key.',
};

function notServedKind(route: RouteDefinition): NotServed | undefined {
  if (route.handler === unsupportedEndpointHandler) return 'stored-data';
  if (route.handler === notOfferedEndpointHandler) return 'not-offered';
  if (route.handler === masterEndpointHandler) return 'master-only';
  return undefined;
}

// Routes that serve a page's own parts (a script, the redirect to the reference page), not the API.
const pageRoutes = new Set(['redirectToDocs', 'getDocsScript', 'getStatusScript']);

/**
 * The endpoints this gateway answers with a 404 of their own, as one section of the document's
 * description (one entry in the reference page's sidebar) rather than one operation each.
 */
function notServedSection(routes: readonly RouteDefinition[]): string {
  const rows = routes.flatMap((route) => {
    const kind = notServedKind(route);
    return kind === undefined
      ? []
      : [`| \`${route.method} ${route.path}\` | ${notServedAnswers[kind]} |`];
  });
  return [
    '',
    '',
    '## Endpoints this gateway does not serve',
    '',
    '| endpoint | answer |',
    '|---|---|',
    ...rows,
  ].join('\n');
}

function operationFor(route: RouteDefinition, catalogue: Catalogue): JsonSchema {
  const surface = surfaceDocs[route.operationId];
  const { contract } = route;
  if (
    surface !== undefined &&
    (contract.answers === 'text' || route.operationId === 'getOpenApiDocument')
  ) {
    const statuses = route.operator === true ? [401, 403, 404] : [404];
    const success =
      surface.redirectTo === undefined
        ? {
            200: {
              description: 'Success.',
              content: { [surface.contentType]: { schema: { type: 'string' } } },
            },
          }
        : {
            302: {
              description: `Redirect to ${surface.redirectTo}.`,
              headers: {
                Location: {
                  description: 'Where the page is.',
                  schema: { type: 'string', const: surface.redirectTo },
                },
              },
            },
          };
    return {
      tags: [surface.tag],
      summary: surface.summary,
      description: surface.description,
      responses: { ...success, ...errorResponses(route, statuses) },
    };
  }
  if (contract.answers !== 'json')
    throw new Error(`${route.operationId}: a route that is not JSON needs an entry in surfaceDocs`);
  const doc = operationDocs[route.operationId] ?? { tag: 'Other', summary: route.operationId };
  const operation: JsonSchema = { tags: [doc.tag], summary: doc.summary };
  if (doc.description !== undefined) operation.description = doc.description;
  const statuses =
    route.operationId === 'tokenize'
      ? [...modelCallStatuses, 501].sort((left, right) => left - right)
      : contract.request !== undefined
        ? modelCallStatuses
        : route.path.includes('{')
          ? [401, 404]
          : route.operator === true
            ? [401, 403]
            : route.auth
              ? [401]
              : [];
  const responses: Record<string, JsonSchema> = { ...errorResponses(route, statuses) };
  for (const status of contract.responseStatuses ?? [200]) {
    responses[String(status)] =
      status === 200
        ? successResponse(contract)
        : {
            description: 'Not ready.',
            content: { 'application/json': { schema: bodySchema(contract.response) } },
          };
  }
  operation.responses = responses;
  let firstBody: Record<string, unknown> | undefined;
  if (contract.request !== undefined) {
    const examples = doc.examples ?? {};
    firstBody = Object.values(examples)[0]?.value;
    const schema = requestBodySchema(contract, contract.request, catalogue);
    const content: JsonSchema = { 'application/json': { schema, examples } };
    if (route.multipart === true)
      content['multipart/form-data'] = {
        schema: formRequestSchema(schema),
        encoding: { image: { contentType: 'image/png, image/jpeg, image/webp, image/gif' } },
      };
    operation.requestBody = { required: true, content };
  }
  operation['x-codeSamples'] = codeSamples({
    method: route.method,
    path: fillPath(route.path, doc.pathExample),
    body: firstBody,
    auth: route.auth || route.operator === true,
    clients: doc.clients,
    pathParameter:
      doc.clients?.pathArgument !== undefined
        ? doc.pathExample?.[doc.clients.pathArgument]
        : undefined,
  });
  return operation;
}

/**
 * The OpenAPI 3.1 document of a route table, generated from the same zod schemas that validate
 * requests (so it cannot drift from them), with the catalogue's model ids as enums, both error
 * envelopes, bearer auth, examples and code samples (curl, OpenAI and Cohere clients, @infergate/sdk).
 */
export function buildOpenApiDocument(options: OpenApiDocumentOptions): OpenApiDocument {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const tags = new Set<string>();
  for (const route of options.routes) {
    if (notServedKind(route) !== undefined || pageRoutes.has(route.operationId)) continue;
    const operation = operationFor(route, options.catalogue);
    (operation.tags as string[]).forEach((tag) => tags.add(tag));
    const parameters = pathParameters(route, operationDocs[route.operationId]);
    const entry: JsonSchema = { operationId: route.operationId, ...operation };
    if (parameters.length > 0) entry.parameters = parameters;
    // Operator endpoints are not `auth` in the table because they check keys themselves; they still need one.
    if (!route.auth && route.operator !== true) entry.security = [];
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, JsonSchema>)[route.method.toLowerCase()] = entry;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'infergate',
      version: '1',
      description:
        'An HTTP JSON gateway in front of a catalogue of hosted models: text generation, embeddings, reranking, image generation and editing, tokenization. Every route but the health checks, this document and the reference page needs `Authorization: Bearer <key>`.' +
        notServedSection(options.routes),
    },
    servers: [{ url: options.serverUrl ?? '/' }],
    security: [{ bearerAuth: [] }],
    tags: [...tags].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key of this gateway.' },
      },
      schemas: {
        NativeError: responseJsonSchema(nativeErrorSchema),
        CompatError: responseJsonSchema(compatErrorSchema),
        AnthropicError: responseJsonSchema(anthropicErrorSchema),
      },
    },
  };
}
