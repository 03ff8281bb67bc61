import { pythonJson } from '../json/python-json.js';
import { valueForSchema } from '../json/value-for-schema.js';
import { composeReply } from '../text/compose-reply.js';
import type { Reply } from '../text/compose-reply.js';
import { promptWords } from '../text/prompt-words.js';
import type { ChatRequest } from './parse-chat-request.js';
import type { JsonTarget } from './parse-json-target.js';
import { messageText } from './prompt-messages.js';
import { planToolCall } from './tool-call-reply.js';
import type { ToolCallPlan } from './tool-call-reply.js';
import { toolResultReply, trailingToolResults } from './tool-result-reply.js';

/** What one choice generates; `toolCall` when that text is a tool call the answer reports as such. */
export interface ChoicePlan {
  reply: Reply;
  toolCall: ToolCallPlan | undefined;
}

/**
 * Picks the answer an agent needs, in this order: a tool call when tools are offered, `tool_choice` is not
 * `none` and the last message is not a tool result (the named function, else the first tool); JSON when
 * `response_format` or `structured_outputs` asks for it; after tool results a text quoting them; else the
 * labelled reflection of the last user message.
 */
export function chooseReply(chat: ChatRequest, model: string, choiceIndex: number): ChoicePlan {
  const lastUser = chat.messages.findLast((message) => message.role === 'user');
  const lastUserText = lastUser === undefined ? '' : messageText(lastUser);
  const prose = composeReply({
    model,
    lastUserText,
    imageCount: lastUser?.parts.filter((part) => part.kind === 'image').length ?? 0,
    choiceIndex,
    seed: chat.seed,
    reasoning: chat.reasoningEnabled ? { effort: chat.reasoningEffort } : undefined,
  });
  const toolResults = trailingToolResults(chat.messages);
  const { tools, toolChoice } = chat.tools;
  // A structured answer that ran past its end (ignore_eos, min_tokens) goes on with whitespace, which keeps
  // JSON valid, as a grammar-constrained model does.
  const structured = (content: string): Reply => ({
    reasoning: prose.reasoning,
    content,
    continuation: () => '\n',
  });

  if (tools.length > 0 && toolChoice !== 'none' && toolResults.length === 0) {
    const tool =
      (typeof toolChoice === 'object'
        ? tools.find((candidate) => candidate.name === toolChoice.name)
        : undefined) ?? tools[0];
    if (tool !== undefined) {
      const toolCall = planToolCall(tool, promptWords(lastUserText));
      return { reply: structured(toolCall.text), toolCall };
    }
  }
  const answer =
    toolResults.length > 0 ? toolResultReply(chat.messages, toolResults) : prose.content;
  if (chat.jsonTarget !== undefined) {
    const source =
      toolResults.length > 0
        ? toolResults.map((result) => messageText(result)).join(' ')
        : lastUserText;
    return {
      reply: structured(jsonContent(chat.jsonTarget, model, answer, promptWords(source))),
      toolCall: undefined,
    };
  }
  return {
    reply: toolResults.length > 0 ? { ...prose, content: answer } : prose,
    toolCall: undefined,
  };
}

function jsonContent(target: JsonTarget, model: string, answer: string, words: string[]): string {
  if (target.kind === 'choice') return target.choice;
  if (target.kind === 'schema') return pythonJson(valueForSchema(target.schema, words));
  return pythonJson({ model, answer, words: words.slice(0, 8) });
}
