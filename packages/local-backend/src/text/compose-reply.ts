import { fnvHash } from './fnv-hash.js';
import { seededRandom } from './seeded-random.js';

export interface ReplyInput {
  model: string;
  lastUserText: string;
  imageCount: number;
  choiceIndex: number;
  seed: number | undefined;
  reasoning: { effort: string | undefined } | undefined;
}

export interface Reply {
  reasoning: string | undefined;
  content: string;
  /** The k-th sentence of text generated past the natural end (ignore_eos, min_tokens). */
  continuation(k: number): string;
}

const label = '[infergate local backend]';
const openers = [
  'You wrote:',
  'Your message was:',
  'Echoing your words:',
  'Here is what you said:',
];
const fillerWords = [
  'local',
  'backend',
  'token',
  'stream',
  'gateway',
  'model',
  'reply',
  'text',
  'sample',
  'steady',
  'deterministic',
  'filler',
];
const summaryWords = 8;

/** The deterministic text of one choice: labelled, summarising the last user message, then reflecting it. */
export function composeReply(input: ReplyInput): Reply {
  const words = input.lastUserText.split(/\s+/).filter((word) => word.length > 0);
  const summary =
    words.length === 0
      ? '(an empty message)'
      : words.slice(0, summaryWords).join(' ') + (words.length > summaryWords ? '…' : '');
  const images =
    input.imageCount === 0
      ? ''
      : ` (with ${input.imageCount} image${input.imageCount === 1 ? '' : 's'})`;
  const opener = openers[(input.choiceIndex + (input.seed ?? 0)) % openers.length] ?? openers[0];
  const content =
    `${label} You asked ${input.model} about: ${summary}${images}. ${opener} ${input.lastUserText}`.trimEnd();
  const seedBase = fnvHash(`${input.seed ?? 'none'}|${input.choiceIndex}|${input.lastUserText}`);
  return {
    reasoning:
      input.reasoning === undefined
        ? undefined
        : composeReasoning(summary, words.length, input.reasoning.effort),
    content,
    continuation(k: number): string {
      const random = seededRandom(seedBase + k);
      const sentence = Array.from(
        { length: 6 },
        () => fillerWords[Math.floor(random() * fillerWords.length)] ?? 'token',
      );
      return ` ${label} continuing (${k + 1}): ${sentence.join(' ')}.`;
    },
  };
}

/** Reasoning whose length follows the effort: low is one sentence, high several, max one more. */
function composeReasoning(summary: string, wordCount: number, effort: string | undefined): string {
  if (effort === 'low')
    return `${label} Thinking briefly: the user asks about ${summary}; I will reflect the message back.`;
  const steps = [
    `${label} Thinking it through.`,
    `Step 1: read the last user message (${wordCount} word${wordCount === 1 ? '' : 's'}).`,
    `Step 2: summarise it as "${summary}".`,
    'Step 3: label the answer as coming from the local backend and reflect the message back.',
  ];
  if (effort === 'max' || effort === undefined)
    steps.push('Step 4: check that the answer is deterministic for this request, then answer.');
  return steps.join(' ');
}
