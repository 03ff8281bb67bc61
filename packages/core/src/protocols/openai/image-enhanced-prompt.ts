import { z } from 'zod';
import { GatewayError } from '../../errors/gateway-error.js';
import { upstreamBodyIssue } from '../upstream-body-issue.js';

export interface EnhancedPrompt {
  prompt: string;
  /** Tokens of the enhancement call, charged to the text model (spec). */
  inputTokens: number;
  outputTokens: number;
}

const tokenCount = z.int().min(0);

// A vLLM chat completion; only what the enhancement needs is read.
const chatCompletionSchema = z.looseObject({
  choices: z
    .array(z.looseObject({ message: z.looseObject({ content: z.string().nullish() }) }))
    .min(1),
  usage: z
    .looseObject({ prompt_tokens: tokenCount.optional(), completion_tokens: tokenCount.optional() })
    .nullish(),
});

const quotePairs: ReadonlyArray<readonly [string, string]> = [
  ['"', '"'],
  ["'", "'"],
  ['`', '`'],
  ['\u201c', '\u201d'],
  ['\u2018', '\u2019'],
];

/** The answer without the wrapping a chat model tends to add: whitespace, quotes, an empty think block. */
function cleanPrompt(text: string): string {
  // A template that ignores enable_thinking still emits <think>...</think> first; it is not the prompt.
  let prompt = text.replace(/^\s*<think>[\s\S]*?<\/think>/, '').trim();
  for (let changed = true; changed;) {
    changed = false;
    for (const [open, close] of quotePairs) {
      if (
        prompt.length >= open.length + close.length &&
        prompt.startsWith(open) &&
        prompt.endsWith(close)
      ) {
        prompt = prompt.slice(open.length, prompt.length - close.length).trim();
        changed = true;
      }
    }
  }
  return prompt;
}

/** The rewritten prompt from the text model's chat completion; a missing or empty answer is the upstream's failure (502). */
export function readImageEnhancedPrompt(body: unknown): EnhancedPrompt {
  const parsed = chatCompletionSchema.safeParse(body);
  if (!parsed.success)
    throw GatewayError.upstreamBodyInvalid(
      'The prompt enhancement model answered with an unexpected body.',
      upstreamBodyIssue(parsed.error),
    );
  const prompt = cleanPrompt(parsed.data.choices[0]?.message.content ?? '');
  if (prompt.length === 0)
    throw GatewayError.upstreamBodyInvalid(
      'The prompt enhancement model returned an empty prompt.',
      'choices[0].message.content: empty',
    );
  return {
    prompt,
    inputTokens: parsed.data.usage?.prompt_tokens ?? 0,
    outputTokens: parsed.data.usage?.completion_tokens ?? 0,
  };
}
