/*
 * The upstream chat completion schema's answer for a body it accepts, without zod: zod copies every
 * object of a loose schema and runs a closure per field, about a tenth of a non-streamed chat
 * request's CPU. The body is JSON the gateway parsed for this request alone, so it is checked where it
 * is and only the fields the schema transforms are rewritten, after every check has passed. Anything
 * the schema would refuse gives undefined, and the caller asks zod, which names the field.
 */

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCountOrNullish(value: unknown): boolean {
  return value == null || (Number.isSafeInteger(value) && (value as number) >= 0);
}

function isStringOrNullish(value: unknown): boolean {
  return value == null || typeof value === 'string';
}

function isDetailsOrNullish(value: unknown, key: string): boolean {
  return value == null || (isObject(value) && isCountOrNullish(value[key]));
}

function isChoice(value: unknown): boolean {
  if (!isObject(value)) return false;
  const message = value.message;
  if (!isObject(message)) return false;
  const stopReason = value.stop_reason;
  return (
    isCountOrNullish(value.index) &&
    isStringOrNullish(value.finish_reason) &&
    (isStringOrNullish(stopReason) || Number.isSafeInteger(stopReason)) &&
    isStringOrNullish(message.content) &&
    isStringOrNullish(message.reasoning) &&
    isStringOrNullish(message.reasoning_content) &&
    (message.tool_calls == null || Array.isArray(message.tool_calls))
  );
}

function isUsageOrNullish(usage: unknown): boolean {
  if (usage == null) return true;
  return (
    isObject(usage) &&
    isCountOrNullish(usage.prompt_tokens) &&
    isCountOrNullish(usage.completion_tokens) &&
    isCountOrNullish(usage.total_tokens) &&
    isDetailsOrNullish(usage.prompt_tokens_details, 'cached_tokens') &&
    isDetailsOrNullish(usage.completion_tokens_details, 'reasoning_tokens')
  );
}

/** What `upstreamChatCompletionSchema` gives for `body`, or undefined when it would refuse it. */
export function fastUpstreamChatCompletion(body: unknown): Json | undefined {
  if (!isObject(body)) return undefined;
  const created = body.created;
  if (!(
    created == null ||
    (typeof created === 'number' && Number.isFinite(created) && created >= 0)
  ))
    return undefined;
  const choices = body.choices;
  if (!Array.isArray(choices) || choices.length === 0) return undefined;
  for (const choice of choices) if (!isChoice(choice)) return undefined;
  const usage = body.usage;
  if (!isUsageOrNullish(usage)) return undefined;
  // The schema's transforms, now that nothing can fail.
  body.created = created == null ? undefined : Math.floor(created);
  if (isObject(usage)) {
    usage.prompt_tokens ??= 0;
    usage.completion_tokens ??= undefined;
    usage.total_tokens ??= undefined;
  }
  if (!isStringOrNullish(body.system_fingerprint)) body.system_fingerprint = undefined;
  return body;
}
