import { GatewayError } from '../errors/gateway-error.js';
import type { UpstreamRerank } from './upstream-protocol.js';

/** A rerank answer of the wrong shape, whatever the protocol: the upstream's failure (502). */
export function rerankBodyInvalid(detail: string): GatewayError {
  return GatewayError.upstreamBodyInvalid(
    'The model server answered with an unexpected rerank body.',
    detail,
  );
}

/**
 * The rerank as read, once no result points outside the documents or repeats one; `where` is the JSON
 * path of the results list in the upstream's body (empty for a bare array), for the operator's log.
 */
export function checkRerankScores(
  rerank: UpstreamRerank,
  documentCount: number,
  where: string,
): UpstreamRerank {
  const seen = new Set<number>();
  for (const [position, score] of rerank.scores.entries()) {
    if (score.index >= documentCount)
      throw rerankBodyInvalid(
        `${where}[${position}].index: points past the ${documentCount} documents`,
      );
    if (seen.has(score.index)) throw rerankBodyInvalid(`${where}[${position}].index: repeated`);
    seen.add(score.index);
  }
  return rerank;
}
