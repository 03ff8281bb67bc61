const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const littleEndianHost = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
// Two output characters per 12 input bits: one table lookup and one 16-bit store instead of two of
// each. Built once; 8 KiB.
const pairTable = buildPairTable();
const asciiDecoder = new TextDecoder();
const padCode = '='.charCodeAt(0);

function buildPairTable(): Uint16Array {
  const table = new Uint16Array(4096);
  const codes = Array.from(alphabet, (character) => character.charCodeAt(0));
  for (let index = 0; index < 4096; index += 1) {
    const first = codes[index >> 6] ?? 0;
    const second = codes[index & 63] ?? 0;
    // Stored so that the two bytes land in memory as [first, second] whatever the host order.
    table[index] = littleEndianHost ? first | (second << 8) : (first << 8) | second;
  }
  return table;
}

/** The IEEE-754 float32 bytes of a vector, little-endian, 4 bytes per component, no header. */
export function float32LittleEndianBytes(vector: readonly number[]): Uint8Array {
  if (littleEndianHost) return new Uint8Array(Float32Array.from(vector).buffer);
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (let index = 0; index < vector.length; index += 1)
    view.setFloat32(index * 4, vector[index] ?? 0, true);
  return bytes;
}

/** RFC 4648 base64 (standard alphabet, `=` padding) of a byte array. */
export function encodeBase64(bytes: Uint8Array): string {
  const length = bytes.length;
  const outputLength = Math.ceil(length / 3) * 4;
  const output = new Uint8Array(outputLength);
  const pairs = new Uint16Array(output.buffer, 0, outputLength >> 1);
  const whole = length - (length % 3);
  let pair = 0;
  for (let index = 0; index < whole; index += 3) {
    const triple =
      ((bytes[index] ?? 0) << 16) | ((bytes[index + 1] ?? 0) << 8) | (bytes[index + 2] ?? 0);
    pairs[pair] = pairTable[triple >> 12] ?? 0;
    pairs[pair + 1] = pairTable[triple & 4095] ?? 0;
    pair += 2;
  }
  const rest = length - whole;
  if (rest > 0) {
    const first = bytes[whole] ?? 0;
    const second = rest === 2 ? (bytes[whole + 1] ?? 0) : 0;
    const triple = (first << 16) | (second << 8);
    const at = pair * 2;
    output[at] = alphabet.charCodeAt(triple >> 18);
    output[at + 1] = alphabet.charCodeAt((triple >> 12) & 63);
    output[at + 2] = rest === 2 ? alphabet.charCodeAt((triple >> 6) & 63) : padCode;
    output[at + 3] = padCode;
  }
  return asciiDecoder.decode(output);
}

/**
 * A float vector as base64 of its little-endian float32 bytes: the layout vLLM, TEI and Cohere send for
 * `base64` embeddings and that openai-node decodes.
 */
export function encodeFloat32Base64(vector: readonly number[]): string {
  return encodeBase64(float32LittleEndianBytes(vector));
}
