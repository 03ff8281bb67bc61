import { parseChatTools } from '../chat/parse-chat-tools.js';
import { parsePromptMessages } from '../chat/prompt-messages.js';
import { chatPromptTokens } from '../chat/render-chat-prompt.js';
import { BodyFields } from '../http/body-fields.js';
import { readJsonBody } from '../http/read-json-body.js';
import type { RouteContext } from '../http/route-context.js';
import { VllmError } from '../http/vllm-error.js';
import { decodeTokens, encodeText } from '../text/qwen-tokenizer.js';

/**
 * vLLM's `POST /tokenize`: the completion form `{model, prompt}` or the chat form `{model, messages}` (rendered
 * through the chat template with the generation prompt unless `add_generation_prompt: false`). Qwen3 adds no
 * BOS, so add_special_tokens changes nothing. `tools` are rendered into the prompt as in chat. No length check against max_model_len, as in vLLM.
 */
export async function tokenizeRoute(request: Request, context: RouteContext): Promise<Response> {
  const body = await readJsonBody(request);
  const fields = new BodyFields(body);
  const model = context.registry.resolve(fields.string('model'));
  let tokens: number[];
  if (body.prompt !== undefined) {
    tokens = encodeText(fields.requiredString('prompt'));
  } else if (body.messages !== undefined) {
    if (
      fields.boolean('add_generation_prompt', true) &&
      fields.boolean('continue_final_message', false)
    ) {
      throw VllmError.badRequest(
        'Cannot set both `continue_final_message` and `add_generation_prompt` to True.',
        'continue_final_message',
      );
    }
    tokens = chatPromptTokens(
      await parsePromptMessages(body.messages),
      fields.boolean('add_generation_prompt', true),
      parseChatTools(body).tools,
    );
  } else {
    throw VllmError.validation('1 validation error: body.prompt: Field required', 'body.prompt');
  }
  return Response.json({
    count: tokens.length,
    max_model_len: model.contextWindow,
    tokens,
    token_strs: fields.boolean('return_token_strs', false)
      ? tokens.map((token) => decodeTokens([token]))
      : null,
  });
}
