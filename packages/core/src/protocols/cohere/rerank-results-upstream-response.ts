import { z } from 'zod';
import { GatewayError } from '../../errors/gateway-error.js';
import { upstreamBodyIssue } from '../../transforms/upstream-body-issue.js';
import type { UpstreamProtocol } from '../../handlers/ports.js';

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

function wrongShape(detail: string): GatewayError {
  return GatewayError.upstreamBodyInvalid('The model server answered with an unexpected rerank body.', detail);
}

/** The scores of an upstream rerank answer; any result pointing outside the documents is the upstream's failure. */
export function readRerankUpstreamResponse(protocol: UpstreamProtocol, body: unknown, documentCount: number): UpstreamRerank {
  let result: UpstreamRerank;
  if (protocol === 'tei') {
    const parsed = teiResultsSchema.safeParse(body);
    if (!parsed.success) throw wrongShape(upstreamBodyIssue(parsed.error));
    result = { scores: parsed.data.map((item) => ({ index: item.index, relevanceScore: item.score })), inputTokens: undefined };
  } else {
    const parsed = scoredResultsSchema.safeParse(body);
    if (!parsed.success) throw wrongShape(upstreamBodyIssue(parsed.error));
    result = {
      scores: parsed.data.results.map((item) => ({ index: item.index, relevanceScore: item.relevance_score })),
      inputTokens: parsed.data.usage?.prompt_tokens,
    };
  }
  const seen = new Set<number>();
  const where = protocol === 'tei' ? '' : 'results';
  for (const [position, score] of result.scores.entries()) {
    if (score.index >= documentCount) throw wrongShape(`${where}[${position}].index: points past the ${documentCount} documents`);
    if (seen.has(score.index)) throw wrongShape(`${where}[${position}].index: repeated`);
    seen.add(score.index);
  }
  return result;
}
