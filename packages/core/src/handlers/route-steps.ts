import type { Endpoint, ModelEntry } from '../catalogue/catalogue-types.js';
import { FallbackChain } from '../catalogue/fallback-chain.js';
import { resolveModelFor } from '../catalogue/resolve-model.js';
import { GatewayError } from '../errors/gateway-error.js';
import { mapUpstreamStatus } from '../errors/map-upstream-status.js';
import type {
  AbortSignalLike,
  UpstreamCall,
  UpstreamJsonResponse,
  UpstreamTarget,
} from '../ports/ports.js';
import type {
  HandlerContext,
  HandlerInput,
  JsonResult,
  ResultMeta,
} from '../ports/handler-types.js';
import type { UpstreamPathAndBody } from '../protocols/upstream-protocol.js';

/*
 * The steps every model-calling handler shares (text, embeddings, rerank, tokenize, images), kept in one
 * place so that the handlers cannot drift apart (the failure CONVENTIONS.md names in a peer gateway).
 */

/**
 * The catalogue entry of a requested id on `endpoint`, refused (403) when the key's allow-list names
 * neither id. A virtual model with a list gives the model of the request's current attempt (the
 * first call starts the request's FallbackChain).
 */
export function resolveAllowedModel(
  context: HandlerContext,
  requested: string,
  endpoint: Endpoint,
): ModelEntry {
  const { catalogue } = context.config;
  const resolved = resolveModelFor(catalogue, requested, endpoint);
  const allowed = context.identity?.models;
  const route = catalogue.virtualRoutes.get(requested);
  let { entry } = resolved;
  if (route !== undefined) {
    context.fallback ??= FallbackChain.start(
      requested,
      route,
      (id) => allowed === undefined || allowed.includes(requested) || allowed.includes(id),
      () => Number.parseInt(context.ids.hex(8), 16) / 2 ** 32,
    );
    if (context.fallback.requested === requested)
      entry = catalogue.models.get(context.fallback.model) as ModelEntry;
  }
  if (allowed !== undefined && !allowed.includes(requested) && !allowed.includes(entry.id)) {
    throw GatewayError.modelNotAllowed(requested);
  }
  return entry;
}

/** Where the model is served; 503 model_not_configured when no upstream serves it. */
export function upstreamTargetFor(context: HandlerContext, entry: ModelEntry): UpstreamTarget {
  const target = context.upstream.target(entry.id);
  if (target === undefined) throw GatewayError.modelNotConfigured(entry.id);
  return target;
}

export interface UpstreamJsonAnswer {
  body: unknown;
  /** The upstream endpoint's name, for logs and metrics only. */
  endpoint: string;
}

/** An endpoint's own reading of a non-2xx upstream answer, consulted before docs/design.md's mapping; undefined: the mapping. */
export type FailedStatusReader = (status: number, body: unknown) => GatewayError | undefined;

/**
 * One non-streaming upstream call. A non-2xx answer becomes docs/design.md's status mapping (unless
 * `readFailedStatus` says otherwise); a stream where JSON was asked for is the upstream's failure.
 */
export async function sendUpstreamJson(
  context: HandlerContext,
  input: HandlerInput,
  modelId: string,
  request: UpstreamPathAndBody,
  signal: AbortSignalLike = input.signal,
  readFailedStatus?: FailedStatusReader,
): Promise<UpstreamJsonAnswer> {
  const response = await sendUpstream(
    context,
    input,
    modelId,
    request,
    signal,
    false,
    readFailedStatus,
  );
  return { body: response.body, endpoint: response.endpoint };
}

export interface UpstreamBytesAnswer {
  /** The 2xx answer's bytes as they arrived, unparsed and unjoined (none when it had no body). */
  pieces: readonly Uint8Array[];
  endpoint: string;
}

const encoder = new TextEncoder();

/**
 * sendUpstreamJson for an answer core reads from its bytes in one pass (embeddings). A port that parses
 * anyway (it ignores `raw`) is still served: its JSON is written back as bytes.
 */
export async function sendUpstreamBytes(
  context: HandlerContext,
  input: HandlerInput,
  modelId: string,
  request: UpstreamPathAndBody,
  signal: AbortSignalLike = input.signal,
): Promise<UpstreamBytesAnswer> {
  const response = await sendUpstream(context, input, modelId, request, signal, true, undefined);
  const pieces = response.pieces ?? [
    encoder.encode(response.body === undefined ? '' : JSON.stringify(response.body)),
  ];
  return { pieces, endpoint: response.endpoint };
}

async function sendUpstream(
  context: HandlerContext,
  input: HandlerInput,
  modelId: string,
  request: UpstreamPathAndBody,
  signal: AbortSignalLike,
  raw: boolean,
  readFailedStatus: FailedStatusReader | undefined,
): Promise<UpstreamJsonResponse> {
  const call: UpstreamCall = {
    modelId,
    path: request.path,
    body: request.body,
    stream: false,
    signal,
    requestId: input.requestId,
  };
  if (raw) call.raw = true;
  const response = await context.upstream.send(call);
  const failed = response.status < 200 || response.status > 299;
  if (response.kind !== 'json') {
    // Leaving the events unread would hold the upstream connection open.
    await response.events.return?.();
    if (failed)
      throw mapUpstreamStatus(response.status, undefined, response.headers['retry-after']);
    throw GatewayError.upstreamFailed(
      'The model server answered with a stream where JSON was expected.',
    );
  }
  if (failed)
    throw (
      readFailedStatus?.(response.status, response.body) ??
      mapUpstreamStatus(response.status, response.body, response.headers['retry-after'])
    );
  return response;
}

/** A 200 JSON result, serialized once so that both apps send identical bytes. */
export function jsonResult(
  body: unknown,
  meta: ResultMeta,
  headers: Record<string, string> = {},
): JsonResult {
  return textResult(JSON.stringify(body), meta, headers);
}

/** A 200 JSON result from JSON text (or its UTF-8 bytes) the handler wrote itself. */
export function textResult(
  body: JsonResult['body'],
  meta: ResultMeta,
  headers: Record<string, string> = {},
): JsonResult {
  return {
    kind: 'json',
    status: 200,
    headers: { 'content-type': 'application/json', ...headers },
    body,
    meta,
  };
}

/** docs/design.md's header for accepted parameters the upstream cannot honour (empty list: no header). */
export function ignoredParamsHeader(names: readonly string[]): Record<string, string> {
  return names.length === 0 ? {} : { 'x-infergate-ignored-params': names.join(', ') };
}
