import { VllmError } from './vllm-error.js';

/** Reads a JSON object body; anything else is vLLM's 400 validation envelope. */
export async function readJsonBody(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'invalid JSON';
    throw VllmError.validation(`JSON decode error: ${reason}`, 'body');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw VllmError.validation(
      'Input should be a valid dictionary or object to extract fields from',
      'body',
    );
  }
  return value as Record<string, unknown>;
}
