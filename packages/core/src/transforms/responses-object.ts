/** The token counts of a chat usage object (vLLM's UsageInfo) that the response usage is built from. */
export interface UsageCounts {
  prompt_tokens: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/** Request values the response object reports back; null when not given (the spec's shown response). */
export interface ResponsesEcho {
  instructions: string | null;
  max_output_tokens: number | null;
  reasoning: { effort: string } | null;
  temperature: number | null;
  top_p: number | null;
  user: string | null;
}

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cached_tokens_per_turn: number[]; input_tokens_per_turn: number[] };
  output_tokens: number;
  output_tokens_details: { output_tokens_per_turn: number[]; reasoning_tokens: number; tool_output_tokens: number; tool_output_tokens_per_turn: number[] };
  total_tokens: number;
}

export interface ResponsesOutputText {
  type: 'output_text';
  text: string;
  annotations: never[];
  logprobs: null;
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

export type ResponsesOutputItem = ResponsesMessageItem | ResponsesReasoningItem;

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
  parallel_tool_calls: true;
  service_tier: 'auto';
  tool_choice: 'auto';
  tools: never[];
  truncation: 'disabled';
  incomplete_details: { reason: 'max_output_tokens' } | null;
  input_messages: null;
  max_tool_calls: null;
  metadata: null;
  output_messages: null;
  previous_response_id: null;
  prompt: null;
  text: null;
  top_logprobs: null;
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
    input_tokens_details: { cached_tokens: cached, cached_tokens_per_turn: [cached], input_tokens_per_turn: [input] },
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

export function messageItem(id: string, text: string, status: ResponsesMessageItem['status']): ResponsesMessageItem {
  return { id, type: 'message', role: 'assistant', status, phase: null, content: [{ type: 'output_text', text, annotations: [], logprobs: null }] };
}

export function reasoningItem(id: string, text: string, status: ResponsesReasoningItem['status']): ResponsesReasoningItem {
  return { id, type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text }], encrypted_content: null, status };
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
  for (const item of parts.output) if (item.type === 'message') for (const part of item.content) outputText += part.text;
  const response: ResponsesObject = {
    id: parts.id,
    object: 'response',
    created_at: parts.createdAt,
    model: parts.model,
    status: parts.status,
    output: parts.output,
    output_text: outputText,
    background: false,
    parallel_tool_calls: true,
    service_tier: 'auto',
    tool_choice: 'auto',
    tools: [],
    truncation: 'disabled',
    incomplete_details: parts.status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    input_messages: null,
    instructions: parts.echo.instructions,
    max_output_tokens: parts.echo.max_output_tokens,
    max_tool_calls: null,
    metadata: null,
    output_messages: null,
    previous_response_id: null,
    prompt: null,
    reasoning: parts.echo.reasoning,
    temperature: parts.echo.temperature,
    text: null,
    top_logprobs: null,
    top_p: parts.echo.top_p,
    user: parts.echo.user,
    usage: parts.usage,
  };
  if (parts.error !== undefined) response.error = parts.error;
  return response;
}
