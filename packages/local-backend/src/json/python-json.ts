/**
 * JSON text as Python's `json.dumps(value, ensure_ascii=False)` writes it: `", "` between items and `": "` after
 * keys. That is what Hugging Face chat templates' `tojson` filter and vLLM's tool parsers produce, so tool
 * definitions and tool-call arguments are tokenized as a vLLM server would see and send them.
 */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item: unknown) => pythonJson(item)).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).filter(
      ([, item]) => item !== undefined,
    );
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}: ${pythonJson(item)}`).join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
