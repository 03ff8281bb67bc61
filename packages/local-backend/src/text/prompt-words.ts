/** The words of a text with the punctuation around each taken off ("Paris?" is "Paris"): what strings are built from. */
export function promptWords(text: string): string[] {
  return text
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((word) => word.length > 0);
}
