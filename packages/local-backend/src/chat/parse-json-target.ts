import { asRecord } from '../http/as-record.js';
import { VllmError } from '../http/vllm-error.js';

/** What the content must be: any JSON object, JSON valid for a schema, or one of a fixed set of strings. */
export type JsonTarget =
  { kind: 'object' } | { kind: 'schema'; schema: unknown } | { kind: 'choice'; choice: string };

/**
 * `response_format` (`text`, `json_object`, `json_schema: {name, schema, strict?}`) and vLLM's own
 * `structured_outputs` (`json` as a schema or its JSON text, `json_object: true`, `choice: [...]`); undefined
 * for free text. Other structured_outputs forms (regex, grammar) are accepted and give free text.
 */
export function parseJsonTarget(body: Record<string, unknown>): JsonTarget | undefined {
  const format = body.response_format;
  if (format !== undefined && format !== null) {
    const type = asRecord(format)?.type;
    if (type === 'json_object') return { kind: 'object' };
    if (type === 'json_schema') {
      const jsonSchema = asRecord(asRecord(format)?.json_schema);
      if (jsonSchema === undefined)
        throw VllmError.invalidField('response_format.json_schema', 'Field required');
      const schema = jsonSchema.schema ?? jsonSchema.json_schema;
      return schema === undefined || schema === null
        ? { kind: 'object' }
        : { kind: 'schema', schema };
    }
    if (type !== 'text' && type !== 'structural_tag')
      throw VllmError.invalidField(
        'response_format.type',
        "Input should be 'text', 'json_object', 'json_schema' or 'structural_tag'",
      );
  }
  const structured = asRecord(body.structured_outputs);
  if (structured === undefined) return undefined;
  if (structured.json !== undefined && structured.json !== null)
    return { kind: 'schema', schema: schemaOf(structured.json) };
  if (structured.json_object === true) return { kind: 'object' };
  const choice = structured.choice;
  if (Array.isArray(choice) && typeof choice[0] === 'string')
    return { kind: 'choice', choice: choice[0] };
  return undefined;
}

function schemaOf(json: unknown): unknown {
  if (typeof json !== 'string') return json;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    throw VllmError.badRequest(
      'structured_outputs.json is not valid JSON.',
      'structured_outputs.json',
    );
  }
}
