import type { Endpoint } from './route-paths.js';
import type { fallbackReasons, modelKinds, reasoningEfforts } from './catalogue-values.js';

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

export type FallbackReason = (typeof fallbackReasons)[number];

/** A virtual model that names several catalogue models: the order they are tried in, and when. */
export interface VirtualRoute {
  /** Catalogue ids, all of one kind, in the order they are tried. */
  readonly models: readonly string[];
  /** The failures that move a request to the next model; any other failure is answered as it is. */
  readonly on: ReadonlySet<FallbackReason>;
  /** Weights over the first attempt (canaries): it is drawn from these models, the rest follow in order. */
  readonly weights?: ReadonlyArray<{ readonly model: string; readonly weight: number }>;
}

export interface Catalogue {
  readonly models: ReadonlyMap<string, ModelEntry>;
  /** Virtual id -> catalogue id (the first of its list, for a virtual model with fallbacks). */
  readonly virtualModels: ReadonlyMap<string, string>;
  /** The virtual ids configured with a list of models, and how they fall back. */
  readonly virtualRoutes: ReadonlyMap<string, VirtualRoute>;
}
