import type { ResponsesLogprob } from './responses-object.js';

function readBytes(value: unknown): number[] {
  return Array.isArray(value)
    ? value.filter((byte): byte is number => typeof byte === 'number')
    : [];
}

function readEntry(
  value: unknown,
): { token: string; logprob: number; bytes: number[] } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.token !== 'string' || typeof record.logprob !== 'number') return undefined;
  return { token: record.token, logprob: record.logprob, bytes: readBytes(record.bytes) };
}

/**
 * A chat choice's `logprobs` (`{content: [{token, logprob, bytes, top_logprobs}]}`) as
 * the log-probabilities of an output_text part; undefined when the upstream sent none (a server that
 * ignored the request, or a chunk without them). Entries of another shape are skipped, not fatal.
 */
export function chatLogprobsToResponses(logprobs: unknown): ResponsesLogprob[] | undefined {
  if (typeof logprobs !== 'object' || logprobs === null) return undefined;
  const content = (logprobs as { content?: unknown }).content;
  if (!Array.isArray(content)) return undefined;
  const result: ResponsesLogprob[] = [];
  for (const value of content) {
    const entry = readEntry(value);
    if (entry === undefined) continue;
    const top = (value as { top_logprobs?: unknown }).top_logprobs;
    result.push({
      ...entry,
      top_logprobs: Array.isArray(top)
        ? top.map(readEntry).filter((item) => item !== undefined)
        : [],
    });
  }
  return result;
}
