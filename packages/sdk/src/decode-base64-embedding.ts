/**
 * Decodes an embedding sent with `encoding_format: 'base64'`: little-endian float32 values, as the
 * gateway (and vLLM, TEI, the compat embed API) encode them. Uses `atob`, present in every runtime.
 */
export function decodeBase64Embedding(base64: string): Float32Array {
  const binary = atob(base64);
  if (binary.length % 4 !== 0)
    throw new RangeError(
      `a base64 embedding must hold a multiple of 4 bytes, got ${binary.length}`,
    );
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  const view = new DataView(bytes.buffer);
  const values = new Float32Array(bytes.length / 4);
  // DataView with littleEndian=true, not a Float32Array over the bytes: that would use the host's order.
  for (let index = 0; index < values.length; index += 1)
    values[index] = view.getFloat32(index * 4, true);
  return values;
}
