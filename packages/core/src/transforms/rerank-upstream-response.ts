import { z } from 'zod';
import { GatewayError } from '../errors/gateway-error.js';
import { upstreamBodyDetail } from '../errors/upstream-body-detail.js';
import type { UpstreamProtocol } from '../handlers/ports.js';

/** Cohere v2 `/v2/rerank` and vLLM's Jina-style `/rerank` share the result fields the gateway reads. */
const scoredResultsSchema = z.looseObject({
  results: z.array(z.looseObject({ index: z.int().min(0), relevance_score: z.number() })),
  usage: z.looseObject({ prompt_tokens: z.int().min(0).optional() }).optional(),
});

/** TEI answers a bare array (protocols.md 5.2). */
const teiResultsSchema = z.array(z.looseObject({ index: z.int().min(0), score: z.number() }));

export interface RerankScore {
  index: number;
  relevanceScore: number;
}

export interface UpstreamRerank {
  scores: RerankScore[];
  /** Prompt tokens when the upstream counts them (vLLM). */
  inputTokens: number | undefined;
}

function wrongShape(cause?: { detail: string }): GatewayError {
  return GatewayError.upstreamFailed('The model server answered with an unexpected rerank body.', cause);
}

/** The scores of an upstream rerank answer; any result pointing outside the documents is the upstream's failure. */
export function readRerankUpstreamResponse(protocol: UpstreamProtocol, body: unknown, documentCount: number): UpstreamRerank {
  let result: UpstreamRerank;
  if (protocol === 'tei') {
    const parsed = teiResultsSchema.safeParse(body);
    if (!parsed.success) throw wrongShape(upstreamBodyDetail(parsed.error));
    result = { scores: parsed.data.map((item) => ({ index: item.index, relevanceScore: item.score })), inputTokens: undefined };
  } else {
    const parsed = scoredResultsSchema.safeParse(body);
    if (!parsed.success) throw wrongShape(upstreamBodyDetail(parsed.error));
    result = {
      scores: parsed.data.results.map((item) => ({ index: item.index, relevanceScore: item.relevance_score })),
      inputTokens: parsed.data.usage?.prompt_tokens,
    };
  }
  const seen = new Set<number>();
  for (const score of result.scores) {
    if (score.index >= documentCount || seen.has(score.index)) throw wrongShape({ detail: `results: index ${score.index} is outside the ${documentCount} documents or repeated` });
    seen.add(score.index);
  }
  return result;
}
