import { performance } from 'node:perf_hooks';

export type LoadKind = 'chat' | 'stream' | 'embeddings';

export interface Outcome {
  kind: LoadKind;
  startedAt: number;
  endedAt: number;
  ok: boolean;
  /** Why it failed: the status and the start of the body, a stream without [DONE], or the error. */
  detail?: string;
}

const kinds: readonly LoadKind[] = ['chat', 'stream', 'embeddings'];

/**
 * A client sending a steady mix of chat, streamed chat and embeddings through `baseUrl`, `workers`
 * requests at a time, until stopped. A request succeeds only with a 200 and a complete answer: a chat
 * completion object, a stream whose last event is [DONE], an embedding.
 */
export class SteadyLoad {
  readonly outcomes: Outcome[] = [];
  /** Requests sent and not answered yet, by start time. */
  readonly inFlight = new Set<{ kind: LoadKind; startedAt: number }>();
  private running = true;
  private next = 0;
  private readonly workers: Promise<void>[];

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    workers: number,
  ) {
    this.workers = Array.from({ length: workers }, () => this.work());
  }

  /** Resolves once `count` more requests have ended than had ended when it was called. */
  async waitForMore(count: number, timeoutMs = 60_000): Promise<void> {
    const target = this.outcomes.length + count;
    const deadline = performance.now() + timeoutMs;
    while (this.outcomes.length < target) {
      if (performance.now() > deadline)
        throw new Error(
          `only ${this.outcomes.length - target + count} of ${count} requests ended in ${timeoutMs} ms`,
        );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  private async work(): Promise<void> {
    while (this.running) {
      const kind = kinds[this.next % kinds.length] as LoadKind;
      this.next += 1;
      const entry = { kind, startedAt: performance.now() };
      this.inFlight.add(entry);
      let detail: string | undefined;
      try {
        detail = await this.send(kind);
      } catch (error) {
        detail = `${(error as Error).name}: ${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? '')}`;
      }
      this.inFlight.delete(entry);
      this.outcomes.push({
        kind,
        startedAt: entry.startedAt,
        endedAt: performance.now(),
        ok: detail === undefined,
        ...(detail === undefined ? {} : { detail }),
      });
    }
  }

  /** Undefined when the answer is complete, else what was wrong with it. */
  private async send(kind: LoadKind): Promise<string | undefined> {
    const headers = { authorization: `Bearer ${this.apiKey}`, 'content-type': 'application/json' };
    const chat = {
      model: 'alpha36-35b-a3b-instruct',
      messages: [{ role: 'user', content: 'Steady.' }],
    };
    const [path, body] =
      kind === 'embeddings'
        ? ['/v1/embeddings', { model: 'alpha3-vl-embedding-8b', input: 'steady' }]
        : ['/v1/chat/completions', kind === 'stream' ? { ...chat, stream: true } : chat];
    const response = await fetch(`${this.baseUrl}${path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== 200) return `${response.status} ${text.slice(0, 200)}`;
    if (kind === 'stream')
      return text.trimEnd().endsWith('data: [DONE]')
        ? undefined
        : `stream without [DONE]: ...${text.slice(-200)}`;
    const parsed = JSON.parse(text) as { object?: string; data?: { embedding?: unknown[] }[] };
    if (kind === 'chat')
      return parsed.object === 'chat.completion'
        ? undefined
        : `not a chat completion: ${text.slice(0, 200)}`;
    return (parsed.data?.[0]?.embedding?.length ?? 0) > 0
      ? undefined
      : `no embedding: ${text.slice(0, 200)}`;
  }
}
