import { z } from 'zod';
import { upstreamBodyIssue } from '../upstream-body-issue.js';
import { checkRerankScores, rerankBodyInvalid } from '../check-rerank-scores.js';
import type { UpstreamRerank } from '../upstream-protocol.js';

/** TEI answers a bare array. */
const teiResultsSchema = z.array(z.looseObject({ index: z.int().min(0), score: z.number() }));

/** The scores of TEI's rerank answer (TEI counts no tokens); any result pointing outside the documents is the upstream's failure. */
export function readRerankUpstreamResponse(body: unknown, documentCount: number): UpstreamRerank {
  const parsed = teiResultsSchema.safeParse(body);
  if (!parsed.success) throw rerankBodyInvalid(upstreamBodyIssue(parsed.error));
  return checkRerankScores(
    {
      scores: parsed.data.map((item) => ({ index: item.index, relevanceScore: item.score })),
      inputTokens: undefined,
    },
    documentCount,
    '',
  );
}
