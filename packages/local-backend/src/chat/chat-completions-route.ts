import { Pacer } from '../http/pacer.js';
import { randomHex } from '../http/random-hex.js';
import { readJsonBody } from '../http/read-json-body.js';
import { sseHeaders } from '../http/sse-writer.js';
import type { RouteContext } from '../http/route-context.js';
import { chatCompletionBody } from './chat-completion-body.js';
import { chatLimits, refuseOverlongPrompt } from './chat-limits.js';
import { createChatStream } from './chat-stream.js';
import { decodeChoice } from './decode-choice.js';
import type { DecodeOutcome, DecodeStep } from './decode-choice.js';
import { chooseReply } from './choose-reply.js';
import { parseChatRequest } from './parse-chat-request.js';
import { encodeChatPrompt, renderChatPrompt } from './render-chat-prompt.js';

/** `POST /v1/chat/completions`, vLLM style, streaming and not. */
export async function chatCompletionsRoute(
  request: Request,
  context: RouteContext,
): Promise<Response> {
  const chat = await parseChatRequest(await readJsonBody(request));
  const model = context.registry.resolveKind(chat.model, ['text'], 'Chat Completions');
  const prompt = renderChatPrompt(chat.messages, true, chat.tools.tools);
  refuseOverlongPrompt(prompt, model.contextWindow);
  const promptTokenIds = encodeChatPrompt(prompt, chat.messages);
  const limits = chatLimits(chat, promptTokenIds.length, model.contextWindow);

  const plans = Array.from({ length: chat.n }, (_, choiceIndex) =>
    chooseReply(chat, model.id, choiceIndex),
  );
  const generators = plans.map((plan) => decodeChoice(plan.reply, limits));
  const toolCalls = plans.map((plan) => plan.toolCall);
  // vLLM: the id is chatcmpl- + the X-Request-Id header, else the body's request_id, else uuid4 hex.
  const id = `chatcmpl-${request.headers.get('x-request-id') ?? chat.requestId ?? randomHex()}`;
  const created = Math.floor(Date.now() / 1000);
  const work = new AbortController();
  request.signal.addEventListener('abort', () => work.abort(), { once: true });
  const pacer = new Pacer(context.options, work.signal);

  if (chat.stream) {
    const stream = createChatStream(
      {
        id,
        created,
        model: model.id,
        promptTokenIds,
        includeUsage: chat.includeUsage,
        continuousUsage: chat.continuousUsage,
        returnTokenIds: chat.returnTokenIds,
        reasoningEnabled: chat.reasoningEnabled,
        toolCalls,
      },
      generators,
      pacer,
      () => work.abort(),
    );
    return new Response(stream, { status: 200, headers: sseHeaders });
  }

  const outcomes = await runToEnd(generators, pacer);
  if (outcomes === undefined) return new Response(null, { status: 499 });
  const body = chatCompletionBody(
    {
      id,
      created,
      model: model.id,
      promptTokenIds,
      returnTokenIds: chat.returnTokenIds,
      reasoningEnabled: chat.reasoningEnabled,
      toolCalls,
    },
    outcomes,
  );
  return Response.json(body);
}

/** Runs every choice to its end, one engine step per pacing interval; undefined when the client went away. */
async function runToEnd(
  generators: Array<Generator<DecodeStep, DecodeOutcome, undefined>>,
  pacer: Pacer,
): Promise<DecodeOutcome[] | undefined> {
  const outcomes: Array<DecodeOutcome | undefined> = generators.map(() => undefined);
  while (outcomes.some((outcome) => outcome === undefined)) {
    if (pacer.paced && !(await pacer.step())) return undefined;
    for (const [index, generator] of generators.entries()) {
      if (outcomes[index] !== undefined) continue;
      const result = generator.next();
      if (result.done === true) outcomes[index] = result.value;
    }
  }
  return outcomes.filter((outcome): outcome is DecodeOutcome => outcome !== undefined);
}
