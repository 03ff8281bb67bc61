import type { Endpoint } from './route-paths.js';
import type { modelKinds, reasoningEfforts } from './catalogue-values.js';

/** What a catalogue model is for; decides which endpoints may use it. */
export type ModelKind = (typeof modelKinds)[number];

// Named by the keys of route-paths.ts's endpoint table, so that a new endpoint is listed once.
export type { Endpoint };

export type InputModality = 'text' | 'image';

export type ReasoningEffort = (typeof reasoningEfforts)[number];

/** The beta53 variants' routing settings: clear_thinking is fixed, reasoning_effort configurable or locked. */
export interface ReasoningPolicy {
  /** true: thinking hidden from the client; sent upstream as chat_template_kwargs.clear_thinking. */
  clearThinking: boolean;
  effort:
    | { kind: 'configurable'; allowed: readonly ReasoningEffort[]; default: ReasoningEffort }
    | { kind: 'locked'; value: ReasoningEffort };
}

export type EmbeddingDimensions =
  | { kind: 'fixed'; value: number }
  | { kind: 'configurable'; allowed: readonly number[]; min: number; max: number; default: number };

export interface ModelEntry {
  id: string;
  kind: ModelKind;
  description: string;
  /** Context window in tokens (docs/design.md: 1M = 1,048,576, 256K = 262,144, 32K = 32,768, 8K = 8,192). */
  contextWindow?: number;
  inputModalities: readonly InputModality[];
  dimensions?: EmbeddingDimensions;
  serves: readonly Endpoint[];
  reasoning?: ReasoningPolicy;
  /** Thinking models expose or produce reasoning; `reasoning` above is only for the beta53 routing settings. */
  thinking?: boolean;
  /** The backend applies its own sampling; user sampling parameters are dropped and reported. */
  backendEnforcedSampling?: boolean;
  /** `-pe` image models: the prompt is first rewritten by this catalogue text model. */
  promptEnhancement?: { textModel: string };
}

export interface Catalogue {
  readonly models: ReadonlyMap<string, ModelEntry>;
  /** Virtual id -> catalogue id. */
  readonly virtualModels: ReadonlyMap<string, string>;
}
