/**
 * vLLM / OpenAI base64 embeddings: raw float32 elements in little-endian order, concatenated without header,
 * standard base64 with padding (what openai-node decodes into a Float32Array).
 */
export function float32Base64(values: Float32Array): string {
  const view = new DataView(new ArrayBuffer(values.length * 4));
  for (let index = 0; index < values.length; index += 1)
    view.setFloat32(index * 4, values[index] ?? 0, true);
  const bytes = new Uint8Array(view.buffer);
  let binary = '';
  const step = 0x8000;
  for (let offset = 0; offset < bytes.length; offset += step) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + step));
  }
  return btoa(binary);
}
