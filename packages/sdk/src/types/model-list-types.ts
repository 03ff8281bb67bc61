/** One entry of GET /v1/models: the completion API's Model plus what the gateway's catalogue knows. */
export interface Model {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  kind?: 'text' | 'embedding' | 'rerank' | 'image-generation' | 'image-edit';
  description?: string;
  /** Tokens; null for models without a context window (reranker, image models). */
  context_window?: number | null;
  input_modalities?: readonly string[];
  /** Embedding dimensions: the default and every allowed value; null for other models. */
  dimensions?: { default: number; allowed: readonly number[] } | null;
  /** The endpoints that accept the model (responses, chat, embeddings, compat-embed, ...). */
  serves?: readonly string[];
  /** Only on virtual models: the catalogue id this id maps to. */
  maps_to?: string;
}

export interface ModelList {
  object: 'list';
  data: Model[];
}
