/** A document's relevance as an upstream scored it; the protocols' rerank readers give these. */
export interface RerankScore {
  index: number;
  relevanceScore: number;
}

export interface RerankResponseOptions {
  /** The request id. */
  id: string;
  scores: readonly RerankScore[];
  topN: number | undefined;
}

/**
 * The Cohere v2 rerank response: results most relevant first (ties keep document
 * order), cut to top_n, each with both fields the Cohere SDK requires, and one billed search unit.
 * Sorted here whatever the upstream did, since TEI and Cohere do not promise to cut to top_n.
 */
export function rerankResponse(options: RerankResponseOptions) {
  const sorted = [...options.scores].sort(
    (left, right) => right.relevanceScore - left.relevanceScore || left.index - right.index,
  );
  const kept = options.topN === undefined ? sorted : sorted.slice(0, options.topN);
  return {
    id: options.id,
    results: kept.map((score) => ({ index: score.index, relevance_score: score.relevanceScore })),
    meta: {
      api_version: { version: '2', is_experimental: true },
      billed_units: { search_units: 1 },
    },
  };
}

export type RerankResponse = ReturnType<typeof rerankResponse>;
