/** Options of the local backend, shared by the Web handler, the node listener and the CLI. */
export interface LocalBackendOptions {
  /** Token rate of generated text (streamed and not); unlimited when absent or 0. */
  tokensPerSecond?: number;
  /** Delay before the first generated token, in milliseconds (default 0). */
  firstTokenDelayMs?: number;
  /** Extra model ids served as text models, beside every catalogue model. */
  models?: Readonly<Record<string, { contextWindow?: number }>>;
}
