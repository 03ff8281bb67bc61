import type { ModelEntry, ReasoningEffort } from '../catalogue/catalogue-types.js';
import { GatewayError } from '../errors/gateway-error.js';

/**
 * The fixed settings a text model gets upstream, sent as `chat_template_kwargs`: inside
 * the template kwargs `max` passes older vLLM versions that refuse it as a top-level reasoning_effort.
 */
export interface ChatTemplateSettings {
  enable_thinking: boolean;
  clear_thinking?: boolean;
  reasoning_effort?: ReasoningEffort;
}

/**
 * docs/design.md's reasoning_effort rows: refused (400, `param`) on a model without a reasoning policy;
 * on a locked (-low) variant only the locked value is accepted; configurable models default to their
 * policy's default (max). `param` names the field as the client sent it (`reasoning_effort` on chat,
 * `reasoning.effort` on responses).
 */
export function reasoningEffortRule(
  entry: ModelEntry,
  requested: string | undefined,
  param: string,
): ChatTemplateSettings {
  const settings: ChatTemplateSettings = { enable_thinking: entry.thinking === true };
  const policy = entry.reasoning;
  if (policy === undefined) {
    if (requested !== undefined) {
      throw GatewayError.invalidParameter(
        param,
        `The model '${entry.id}' does not take ${param}; only beta53-flash-chat and beta53-flash-agent accept it.`,
      );
    }
    return settings;
  }
  let effort: ReasoningEffort;
  if (policy.effort.kind === 'locked') {
    if (requested !== undefined && requested !== policy.effort.value) {
      throw GatewayError.invalidParameter(
        param,
        `The model '${entry.id}' has ${param} locked to '${policy.effort.value}'; it cannot be set to '${requested}'.`,
      );
    }
    effort = policy.effort.value;
  } else {
    if (requested !== undefined && !isAllowed(policy.effort.allowed, requested)) {
      throw GatewayError.invalidParameter(
        param,
        `Invalid value for '${param}': the model '${entry.id}' accepts ${policy.effort.allowed.join(', ')}.`,
      );
    }
    effort = requested ?? policy.effort.default;
  }
  settings.clear_thinking = policy.clearThinking;
  settings.reasoning_effort = effort;
  return settings;
}

function isAllowed(
  allowed: readonly ReasoningEffort[],
  requested: string,
): requested is ReasoningEffort {
  return (allowed as readonly string[]).includes(requested);
}
