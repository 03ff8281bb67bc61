import { z } from 'zod';
import { upstreamBodyIssue } from '../upstream-body-issue.js';
import { checkRerankScores, rerankBodyInvalid } from '../check-rerank-scores.js';
import type { UpstreamRerank } from '../upstream-protocol.js';

/** Cohere v2 `/v2/rerank` and vLLM's Jina-style `/rerank` share the result fields the gateway reads. */
const scoredResultsSchema = z.looseObject({
  results: z.array(z.looseObject({ index: z.int().min(0), relevance_score: z.number() })),
  usage: z.looseObject({ prompt_tokens: z.int().min(0).optional() }).optional(),
});

/** The scores of a `{results: [{index, relevance_score}]}` answer; any result pointing outside the documents is the upstream's failure. */
export function readRerankResultsUpstreamResponse(
  body: unknown,
  documentCount: number,
): UpstreamRerank {
  const parsed = scoredResultsSchema.safeParse(body);
  if (!parsed.success) throw rerankBodyInvalid(upstreamBodyIssue(parsed.error));
  const rerank = {
    scores: parsed.data.results.map((item) => ({
      index: item.index,
      relevanceScore: item.relevance_score,
    })),
    inputTokens: parsed.data.usage?.prompt_tokens,
  };
  return checkRerankScores(rerank, documentCount, 'results');
}
