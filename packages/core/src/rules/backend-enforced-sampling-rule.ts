import type { ModelEntry } from '../catalogue/catalogue-types.js';

/**
 * What counts as "sampling" for the backend-enforced models: the parameters that shape the token
 * distribution or replace sampling (beam search and its length penalty). Not dropped: seed (only
 * makes the backend's own sampling reproducible), token limits, stop conditions and hard output
 * constraints (logit_bias, allowed_token_ids, bad_words), which are the caller's content rules, not
 * sampling settings the backend tunes.
 */
export const backendEnforcedSamplingParameters = [
  'temperature',
  'top_p',
  'top_k',
  'min_p',
  'repetition_penalty',
  'presence_penalty',
  'frequency_penalty',
  'use_beam_search',
  'length_penalty',
] as const;

export interface SamplingRuleResult<Request> {
  request: Request;
  /** Names of the dropped parameters, in the order above; empty when nothing was dropped. */
  ignored: string[];
}

/**
 * docs/design.md: on a model whose backend enforces its sampling, user sampling parameters are dropped
 * before the upstream call and named in the `x-infergate-ignored-params` response header (the one documented drop).
 */
export function backendEnforcedSamplingRule<Request extends object>(
  entry: ModelEntry,
  request: Request,
): SamplingRuleResult<Request> {
  if (entry.backendEnforcedSampling !== true) return { request, ignored: [] };
  const ignored = backendEnforcedSamplingParameters.filter(
    (name) =>
      Object.hasOwn(request, name) && (request as Record<string, unknown>)[name] !== undefined,
  );
  if (ignored.length === 0) return { request, ignored };
  const copy = { ...request } as Record<string, unknown>;
  for (const name of ignored) delete copy[name];
  return { request: copy as Request, ignored };
}
