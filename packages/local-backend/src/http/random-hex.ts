/** 32 lowercase hex digits, the form vLLM uses for request ids (uuid4 hex). */
export function randomHex(): string {
  return crypto.randomUUID().replaceAll('-', '');
}
