import { decodeTokens, encodeText, specialTokens } from '../text/qwen-tokenizer.js';
import type { Reply } from '../text/compose-reply.js';
import { maskBadWords } from './mask-bad-words.js';

export interface DecodeLimits {
  maxTokens: number;
  minTokens: number;
  stop: readonly string[];
  stopTokenIds: readonly number[];
  ignoreEos: boolean;
  includeStopStrInOutput: boolean;
  badWords: readonly string[];
}

/** One generated token; `delta` is the text it releases (empty while a UTF-8 character or stop match is pending). */
export interface DecodeStep {
  channel: 'reasoning' | 'content';
  tokenId: number;
  delta: string;
}

export interface DecodeOutcome {
  finishReason: 'stop' | 'length';
  /** vLLM: the stop token id, the matched stop string, or null on length. */
  stopReason: number | string | null;
  reasoning: string;
  content: string;
  tokenIds: number[];
  reasoningTokens: number;
  /** Text released only at the finish (stop-string hold-back, an unfinished UTF-8 sequence). */
  tail: { reasoning: string; content: string };
}

/**
 * Replays a composed reply token by token the way vLLM's stop checker treats a model's output: stop checks only
 * from min_tokens on, stop strings and stop_token_ids over the content, EOS at the natural end unless ignore_eos,
 * length at max_tokens. Lazy, so a long ignore_eos generation is produced only as fast as it is consumed.
 */
export function* decodeChoice(
  reply: Reply,
  limits: DecodeLimits,
): Generator<DecodeStep, DecodeOutcome, undefined> {
  const reasoningIds = reply.reasoning === undefined ? [] : encodeText(reply.reasoning);
  let contentIds = encodeText(maskBadWords(reply.content, limits.badWords));
  const tokenIds: number[] = [];
  const texts = {
    reasoning: new ChannelText(0),
    content: new ChannelText(
      limits.stop.length === 0 ? 0 : Math.max(...limits.stop.map((stop) => stop.length)) - 1,
    ),
  };
  let continuation = 0;
  let position = 0;

  for (;;) {
    const inReasoning = position < reasoningIds.length;
    const tokenId = inReasoning
      ? reasoningIds[position]
      : contentIds[position - reasoningIds.length];
    const count = tokenIds.length + 1;
    const checking = count >= limits.minTokens;
    if (tokenId === undefined) {
      if (!limits.ignoreEos && checking) {
        tokenIds.push(specialTokens.imEnd);
        return finish('stop', specialTokens.imEnd);
      }
      // Past the natural end only because EOS is ignored or min_tokens is not reached yet: keep generating.
      contentIds = contentIds.concat(
        encodeText(maskBadWords(reply.continuation(continuation), limits.badWords)),
      );
      continuation += 1;
      continue;
    }
    position += 1;
    tokenIds.push(tokenId);
    const channel = inReasoning ? 'reasoning' : 'content';
    if (channel === 'content' && checking && limits.stopTokenIds.includes(tokenId)) {
      if (limits.includeStopStrInOutput) texts.content.push(tokenId);
      yield { channel, tokenId, delta: texts.content.finalize() };
      return finish('stop', tokenId);
    }
    const text = texts[channel];
    text.push(tokenId);
    if (channel === 'content' && checking && limits.stop.length > 0) {
      const match = findStop(text.full, limits.stop, text.full.length - text.lastAddedLength);
      if (match !== undefined) {
        // The hold-back kept any match unreleased, so cutting the text never takes back what was sent.
        text.truncate(match.index + (limits.includeStopStrInOutput ? match.stop.length : 0));
        yield { channel, tokenId, delta: text.finalize() };
        return finish('stop', match.stop);
      }
    }
    const delta = text.release();
    if (count >= limits.maxTokens) {
      yield { channel, tokenId, delta };
      return finish('length', null);
    }
    yield { channel, tokenId, delta };
  }

  function finish(
    finishReason: 'stop' | 'length',
    stopReason: number | string | null,
  ): DecodeOutcome {
    const tail = { reasoning: texts.reasoning.finalize(), content: texts.content.finalize() };
    return {
      finishReason,
      stopReason,
      reasoning: texts.reasoning.full,
      content: texts.content.full,
      tokenIds,
      reasoningTokens: Math.min(position, reasoningIds.length),
      tail,
    };
  }
}

/** The earliest stop string ending at or after `from` (vLLM searches only around the newly added text). */
function findStop(
  text: string,
  stops: readonly string[],
  from: number,
): { index: number; stop: string } | undefined {
  let best: { index: number; stop: string } | undefined;
  for (const stop of stops) {
    if (stop.length === 0) continue;
    const index = text.indexOf(stop, Math.max(0, from - stop.length + 1));
    if (index !== -1 && (best === undefined || index < best.index)) best = { index, stop };
  }
  return best;
}

/**
 * The decoded text of one channel, released in deltas that never split a UTF-8 character and that hold back
 * the last `holdBack` characters while a stop string could still be forming (vLLM's stop buffer).
 */
class ChannelText {
  full = '';
  lastAddedLength = 0;
  private released = 0;
  private pending: number[] = [];

  constructor(private readonly holdBack: number) {}

  push(tokenId: number): void {
    this.pending.push(tokenId);
    const text = decodeTokens(this.pending);
    // A UTF-8 character spans up to 4 byte-level tokens; wait for the rest of it.
    if (text.endsWith('\uFFFD') && this.pending.length < 4) {
      this.lastAddedLength = 0;
      return;
    }
    this.pending = [];
    this.full += text;
    this.lastAddedLength = text.length;
  }

  /** What may be sent now: everything but the hold-back. */
  release(): string {
    return this.releaseUpTo(this.full.length - this.holdBack);
  }

  truncate(length: number): void {
    this.full = this.full.slice(0, length);
    this.released = Math.min(this.released, length);
  }

  /** Decodes what is pending (vLLM shows a cut character as U+FFFD) and releases everything left. */
  finalize(): string {
    if (this.pending.length > 0) {
      this.full += decodeTokens(this.pending);
      this.pending = [];
    }
    return this.releaseUpTo(this.full.length);
  }

  private releaseUpTo(end: number): string {
    if (end <= this.released) return '';
    const delta = this.full.slice(this.released, end);
    this.released = end;
    return delta;
  }
}
