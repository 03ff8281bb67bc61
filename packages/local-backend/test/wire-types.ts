// The model servers' wire shapes, as the tests read them (every field the tests check, nothing inferred).

export interface VllmErrorBody {
  error: { message: string; type: string; param: string | null; code: number };
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: null;
  completion_tokens_details?: { reasoning_tokens: number };
}

export interface ToolCall {
  id: string;
  type: string;
  function: { name: string; arguments: string };
}

export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: string;
  function: { name?: string; arguments?: string };
}

export interface ChatCompletion {
  id: string;
  object: string;
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: {
      role: string;
      content: string | null;
      reasoning: string | null;
      tool_calls: ToolCall[];
      refusal: null;
      annotations: null;
      audio: null;
      function_call: null;
    };
    logprobs: null;
    finish_reason: string;
    stop_reason: number | string | null;
    token_ids: number[] | null;
  }>;
  usage: Usage;
  system_fingerprint: string | null;
  service_tier: null;
  prompt_logprobs: null;
  prompt_token_ids: number[] | null;
  kv_transfer_params: null;
}

export interface ChatChunk {
  id: string;
  object: string;
  created: number;
  model: string;
  choices: Array<{
    index: number;
    delta: { role?: string; content?: string; reasoning?: string; tool_calls?: ToolCallDelta[] };
    logprobs: null;
    finish_reason: string | null;
    stop_reason?: number | string | null;
  }>;
  usage?: Usage;
}

export interface TokenizeResult {
  count: number;
  max_model_len: number;
  tokens: number[];
  token_strs: string[] | null;
}

export interface EmbeddingResponse {
  id: string;
  object: string;
  created: number;
  model: string;
  data: Array<{ index: number; object: string; embedding: number[] | string }>;
  usage: {
    prompt_tokens: number;
    total_tokens: number;
    completion_tokens: number;
    prompt_tokens_details: null;
  };
}

export interface CohereRerank {
  id: string;
  results: Array<{ index: number; relevance_score: number }>;
  meta: { api_version: { version: string }; billed_units: { search_units: number } };
}

export interface ImageResult {
  created: number;
  data: Array<{ b64_json: string }>;
  usage: {
    total_tokens: number;
    input_tokens: number;
    output_tokens: number;
    input_tokens_details: { text_tokens: number; image_tokens: number };
  };
  output_format: string;
  quality: string;
  size: string;
}
