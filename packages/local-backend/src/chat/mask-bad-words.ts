/**
 * vLLM's bad_words bans the token sequences of each word (with and without a leading space). Here the reply is
 * composed as text first, so each whole-word occurrence is replaced by asterisks of the same length: the
 * banned word never reaches the output.
 */
export function maskBadWords(text: string, badWords: readonly string[]): string {
  let masked = text;
  for (const word of badWords) {
    const trimmed = word.trim();
    if (trimmed.length === 0) continue;
    const escaped = trimmed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    masked = masked.replace(
      new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'gu'),
      '*'.repeat(trimmed.length),
    );
  }
  return masked;
}
