import { TeiError } from '../http/tei-error.js';
import { bm25Rank } from './bm25.js';

/**
 * TEI's `POST /rerank`: `{query, texts, raw_scores?, return_text?}` -> a bare array `[{index, score, text?}]`
 * sorted by score. TEI has no model field and no top_n. Malformed JSON is rejected before the handler with a
 * plain-text body, as TEI's axum extractor does (400 for syntax, 422 for a wrong shape).
 */
export async function teiRerankRoute(request: Request): Promise<Response> {
  const text = await request.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return plainText(
      400,
      `Failed to parse the request body as JSON: ${error instanceof Error ? error.message : 'invalid JSON'}`,
    );
  }
  const fields =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {};
  const { query, texts } = fields;
  if (typeof query !== 'string')
    return plainText(
      422,
      'Failed to deserialize the JSON body into the target type: missing or invalid field `query`',
    );
  if (!Array.isArray(texts) || !texts.every((item) => typeof item === 'string')) {
    return plainText(
      422,
      'Failed to deserialize the JSON body into the target type: missing or invalid field `texts`',
    );
  }
  if (texts.length === 0) return new TeiError('Empty', '`texts` cannot be empty').toResponse();
  const rawScores = fields.raw_scores === true;
  const returnText = fields.return_text === true;
  const ranked = bm25Rank(query, texts as string[]);
  return Response.json(
    ranked.map((result) => ({
      index: result.index,
      score: rawScores ? result.logit : result.relevance,
      ...(returnText ? { text: texts[result.index] as string } : {}),
    })),
  );
}

function plainText(status: number, message: string): Response {
  return new Response(message, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
}
