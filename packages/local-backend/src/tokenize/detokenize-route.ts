import { BodyFields } from '../http/body-fields.js';
import { readJsonBody } from '../http/read-json-body.js';
import type { RouteContext } from '../http/route-context.js';
import { VllmError } from '../http/vllm-error.js';
import { decodeTokens, maxTokenId } from '../text/qwen-tokenizer.js';

/** vLLM's `POST /detokenize`: `{model, tokens}` -> `{prompt}`. */
export async function detokenizeRoute(request: Request, context: RouteContext): Promise<Response> {
  const fields = new BodyFields(await readJsonBody(request));
  context.registry.resolve(fields.string('model'));
  if (!fields.has('tokens'))
    throw VllmError.validation('1 validation error: body.tokens: Field required', 'body.tokens');
  const tokens = fields.integerList('tokens');
  const invalid = tokens.find((token) => token < 0 || token > maxTokenId);
  if (invalid !== undefined)
    throw VllmError.badRequest(`Token id ${invalid} is out of vocabulary.`, 'tokens');
  return Response.json({ prompt: decodeTokens(tokens) });
}
