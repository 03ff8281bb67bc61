import { BodyFields } from '../http/body-fields.js';
import { readJsonBody } from '../http/read-json-body.js';
import type { RouteContext } from '../http/route-context.js';
import { VllmError } from '../http/vllm-error.js';
import { bm25Rank } from './bm25.js';

/**
 * `POST /v2/rerank` with Cohere's v2 body `{model, query, documents, top_n?}` and response
 * `{id, results:[{index, relevance_score}], meta}`; errors use this server's vLLM envelope.
 */
export async function cohereRerankRoute(
  request: Request,
  context: RouteContext,
): Promise<Response> {
  const body = await readJsonBody(request);
  const fields = new BodyFields(body);
  context.registry.resolveKind(fields.string('model'), ['rerank'], 'Rerank');
  const query = fields.requiredString('query');
  if (!fields.has('documents'))
    throw VllmError.validation(
      '1 validation error: body.documents: Field required',
      'body.documents',
    );
  const documents = documentTexts(body.documents);
  const topN = fields.integer('top_n');
  if (topN !== undefined && topN < 1)
    throw VllmError.badRequest('top_n must be at least 1.', 'top_n');
  const ranked = bm25Rank(query, documents);
  return Response.json({
    id: crypto.randomUUID(),
    results: ranked
      .slice(0, topN ?? ranked.length)
      .map((result) => ({ index: result.index, relevance_score: result.relevance })),
    meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } },
  });
}

/** Cohere v2 takes plain strings; `{text}` objects (v1 and vLLM's Jina form) are read too. */
function documentTexts(value: unknown): string[] {
  if (!Array.isArray(value))
    throw VllmError.validation(
      '1 validation error: body.documents: Input should be a valid list',
      'body.documents',
    );
  return value.map((item, index) => {
    if (typeof item === 'string') return item;
    if (
      typeof item === 'object' &&
      item !== null &&
      typeof (item as Record<string, unknown>).text === 'string'
    )
      return (item as Record<string, string>).text ?? '';
    throw VllmError.validation(
      `1 validation error: body.documents[${index}]: Input should be a valid string`,
      `body.documents[${index}]`,
    );
  });
}
