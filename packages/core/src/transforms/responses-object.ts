/** The token counts of a chat usage object (vLLM's UsageInfo) that the response usage is built from. */
export interface UsageCounts {
  prompt_tokens: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/** A function tool as the response object lists it (the request's tool, absent fields null). */
export interface ResponsesFunctionToolEcho {
  type: 'function';
  name: string;
  description: string | null;
  parameters: Record<string, unknown> | null;
  strict: boolean | null;
}

export type ResponsesToolChoiceEcho =
  'none' | 'auto' | 'required' | { type: 'function'; name: string };

export type ResponsesTextFormatEcho =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      name: string;
      schema: Record<string, unknown>;
      description?: string | null;
      strict?: boolean | null;
    };

/**
 * Request values the response object reports back, what was applied rather than what was asked (a
 * dropped temperature is null); the spec's shown response, which set none of them, has the defaults.
 */
export interface ResponsesEcho {
  instructions: string | null;
  max_output_tokens: number | null;
  max_tool_calls: number | null;
  metadata: Record<string, string> | null;
  parallel_tool_calls: boolean;
  reasoning: { effort: string; summary: string | null } | null;
  service_tier: string;
  temperature: number | null;
  text: { format?: ResponsesTextFormatEcho | null; verbosity?: string | null } | null;
  tool_choice: ResponsesToolChoiceEcho;
  tools: ResponsesFunctionToolEcho[];
  top_logprobs: number | null;
  top_p: number | null;
  truncation: 'auto' | 'disabled';
  user: string | null;
}

/** The spec's usage; the per-turn arrays are left out of streamed responses (see toStreamedResponsesUsage). */
export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: {
    cached_tokens: number;
    cached_tokens_per_turn?: number[];
    input_tokens_per_turn?: number[];
  };
  output_tokens: number;
  output_tokens_details: {
    output_tokens_per_turn?: number[];
    reasoning_tokens: number;
    tool_output_tokens?: number;
    tool_output_tokens_per_turn?: number[];
  };
  total_tokens: number;
  /** A stream's final usage only: at the model's configured price (absent without one). */
  cost?: number;
}

/** A token's log-probability on an output_text part (the completion API's shape; only when asked for). */
export interface ResponsesLogprob {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: Array<{ token: string; logprob: number; bytes: number[] }>;
}

export interface ResponsesOutputText {
  type: 'output_text';
  text: string;
  annotations: never[];
  /** null unless the request asked for log-probabilities (`top_logprobs` or `include`). */
  logprobs: ResponsesLogprob[] | null;
}

export interface ResponsesMessageItem {
  id: string;
  type: 'message';
  role: 'assistant';
  status: 'in_progress' | 'completed' | 'incomplete';
  phase: null;
  content: ResponsesOutputText[];
}

export interface ResponsesReasoningItem {
  id: string;
  type: 'reasoning';
  summary: never[];
  content: Array<{ type: 'reasoning_text'; text: string }>;
  encrypted_content: null;
  status: 'in_progress' | 'completed' | 'incomplete';
}

/** A tool call of the model, for the client to run and answer with a function_call_output item. */
export interface ResponsesFunctionCallItem {
  id: string;
  type: 'function_call';
  status: 'in_progress' | 'completed' | 'incomplete';
  /** The JSON arguments as the model wrote them. */
  arguments: string;
  call_id: string;
  name: string;
}

export type ResponsesOutputItem =
  ResponsesMessageItem | ResponsesReasoningItem | ResponsesFunctionCallItem;

export type ResponsesStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

/** The spec's response object, text form. `error` appears only on a failed response. */
export interface ResponsesObject extends ResponsesEcho {
  id: string;
  object: 'response';
  created_at: number;
  model: string;
  status: ResponsesStatus;
  output: ResponsesOutputItem[];
  output_text: string;
  background: false;
  /** Always false: the gateway stores nothing, whatever the request's `store` said. */
  store: false;
  incomplete_details: { reason: 'max_output_tokens' } | null;
  input_messages: null;
  output_messages: null;
  previous_response_id: null;
  prompt: null;
  usage: ResponsesUsage | null;
  error?: { code: string; message: string };
}

/** The spec's usage object: one turn, so each per-turn array holds the single turn's count. */
export function toResponsesUsage(usage: UsageCounts): ResponsesUsage {
  const input = usage.prompt_tokens;
  const output = usage.completion_tokens ?? 0;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: {
      cached_tokens: cached,
      cached_tokens_per_turn: [cached],
      input_tokens_per_turn: [input],
    },
    output_tokens: output,
    output_tokens_details: {
      output_tokens_per_turn: [output],
      reasoning_tokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
      tool_output_tokens: 0,
      tool_output_tokens_per_turn: [0],
    },
    total_tokens: usage.total_tokens ?? input + output,
  };
}

/**
 * The usage of the response objects inside stream events: the completion API's fields only. The spec
 * shows the per-turn arrays on the returned object and says nothing of streams; the OpenAI Agents SDK
 * parses a streamed response.completed strictly and refuses any non-number inside the details.
 */
export function toStreamedResponsesUsage(usage: UsageCounts): ResponsesUsage {
  const full = toResponsesUsage(usage);
  return {
    input_tokens: full.input_tokens,
    input_tokens_details: { cached_tokens: full.input_tokens_details.cached_tokens },
    output_tokens: full.output_tokens,
    output_tokens_details: { reasoning_tokens: full.output_tokens_details.reasoning_tokens },
    total_tokens: full.total_tokens,
  };
}

export function messageItem(
  id: string,
  text: string,
  status: ResponsesMessageItem['status'],
  logprobs: ResponsesLogprob[] | null = null,
): ResponsesMessageItem {
  return {
    id,
    type: 'message',
    role: 'assistant',
    status,
    phase: null,
    content: [{ type: 'output_text', text, annotations: [], logprobs }],
  };
}

export function reasoningItem(
  id: string,
  text: string,
  status: ResponsesReasoningItem['status'],
): ResponsesReasoningItem {
  return {
    id,
    type: 'reasoning',
    summary: [],
    content: [{ type: 'reasoning_text', text }],
    encrypted_content: null,
    status,
  };
}

export interface ResponsesObjectParts {
  id: string;
  createdAt: number;
  model: string;
  status: ResponsesStatus;
  output: ResponsesOutputItem[];
  usage: ResponsesUsage | null;
  echo: ResponsesEcho;
  error?: { code: string; message: string };
}

/** The text form with every field of the spec's table, in its order. */
export function responsesObject(parts: ResponsesObjectParts): ResponsesObject {
  let outputText = '';
  for (const item of parts.output)
    if (item.type === 'message') for (const part of item.content) outputText += part.text;
  const response: ResponsesObject = {
    id: parts.id,
    object: 'response',
    created_at: parts.createdAt,
    model: parts.model,
    status: parts.status,
    output: parts.output,
    output_text: outputText,
    background: false,
    parallel_tool_calls: parts.echo.parallel_tool_calls,
    service_tier: parts.echo.service_tier,
    store: false,
    tool_choice: parts.echo.tool_choice,
    tools: parts.echo.tools,
    truncation: parts.echo.truncation,
    incomplete_details: parts.status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    input_messages: null,
    instructions: parts.echo.instructions,
    max_output_tokens: parts.echo.max_output_tokens,
    max_tool_calls: parts.echo.max_tool_calls,
    metadata: parts.echo.metadata,
    output_messages: null,
    previous_response_id: null,
    prompt: null,
    reasoning: parts.echo.reasoning,
    temperature: parts.echo.temperature,
    text: parts.echo.text,
    top_logprobs: parts.echo.top_logprobs,
    top_p: parts.echo.top_p,
    user: parts.echo.user,
    usage: parts.usage,
  };
  if (parts.error !== undefined) response.error = parts.error;
  return response;
}
