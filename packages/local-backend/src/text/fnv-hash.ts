/** FNV-1a over UTF-16 code units: a fast, stable 32-bit hash for feature hashing and seeds. */
export function fnvHash(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}
