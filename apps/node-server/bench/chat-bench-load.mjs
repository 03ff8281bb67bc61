// Shared by the chat benchmarks: an upstream stub answering vLLM's chat completion shape at once, and
// a keep-alive client posting non-streaming chat completions, `concurrency` at a time.
import { Agent, createServer, request as httpRequest } from 'node:http';
import { Buffer } from 'node:buffer';

export const benchModel = 'alpha36-35b-a3b-instruct';

// vLLM's chat completion shape, a fixed short answer.
const completion = JSON.stringify({
  id: 'chatcmpl-0123456789abcdef0123456789abcdef',
  object: 'chat.completion',
  created: 1767225600,
  model: 'served',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'One, two, three.', tool_calls: [], reasoning: null },
      logprobs: null,
      finish_reason: 'stop',
      stop_reason: null,
    },
  ],
  usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13, prompt_tokens_details: null },
});

export function listen(server) {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)),
  );
}

/** The stub on a loopback port: its URL and the server (close it at the end). */
export async function startChatStub() {
  const server = createServer((incoming, response) => {
    incoming.resume();
    incoming.on('end', () =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(completion),
    );
  });
  return { url: await listen(server), server };
}

/** `load(address, count)` sends `count` chat completions to a gateway, `concurrency` at a time; `close()` ends the pool. */
export function createChatLoad(apiKey, concurrency) {
  const body = JSON.stringify({
    model: benchModel,
    messages: [{ role: 'user', content: 'Count to three.' }],
    max_tokens: 16,
  });
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const post = (address) =>
    new Promise((resolve, reject) => {
      const call = httpRequest(
        `${address}/v1/chat/completions`,
        {
          method: 'POST',
          agent,
          headers: {
            authorization: `Bearer ${apiKey}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (response) => {
          response.resume();
          response.on('end', () =>
            response.statusCode === 200
              ? resolve()
              : reject(new Error(`status ${response.statusCode}`)),
          );
        },
      );
      call.on('error', reject);
      call.end(body);
    });
  return {
    async load(address, count) {
      let next = 0;
      const worker = async () => {
        while (next < count) {
          next += 1;
          await post(address);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
    },
    close: () => agent.destroy(),
  };
}

export const median = (values) =>
  [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];
