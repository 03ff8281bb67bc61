import type { UpstreamHandler } from '@infergate/testkit';

export interface DripOptions {
  /** Content chunks, one token each (the usage reports this many completion tokens). */
  tokens: number;
  promptTokens: number;
  delayMs: number;
}

/** A vLLM chat stream that sends one token every `delayMs`, then usage, and stops when the gateway leaves. */
export function dripChatHandler(options: DripOptions): UpstreamHandler {
  return async (request, response) => {
    const model = (request.body as { model?: string } | undefined)?.model ?? 'model';
    const base = {
      id: 'chatcmpl-0123456789abcdef0123456789abcdef',
      object: 'chat.completion.chunk',
      created: 1_750_000_000,
      model,
    };
    const send = (chunk: unknown): void => {
      response.write(`data: ${JSON.stringify(chunk)}\n\n`);
    };
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
    });
    send({
      ...base,
      choices: [
        {
          index: 0,
          delta: { role: 'assistant', content: '' },
          logprobs: null,
          finish_reason: null,
        },
      ],
    });
    for (let index = 0; index < options.tokens; index += 1) {
      if (response.destroyed) return;
      await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      send({
        ...base,
        choices: [{ index: 0, delta: { content: 'tok ' }, logprobs: null, finish_reason: null }],
      });
    }
    send({ ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }] });
    send({
      ...base,
      choices: [],
      usage: {
        prompt_tokens: options.promptTokens,
        completion_tokens: options.tokens,
        total_tokens: options.promptTokens + options.tokens,
      },
    });
    response.end('data: [DONE]\n\n');
  };
}
