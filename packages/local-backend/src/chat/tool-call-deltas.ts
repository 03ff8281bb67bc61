import type { ToolCallPlan } from './tool-call-reply.js';

/**
 * Turns a tool call's generated text, released a token at a time, into the deltas vLLM's streaming tool parser
 * sends: once the name has been generated, `{tool_calls: [{index: 0, id, type: "function", function: {name,
 * arguments: ""}}]}`, then each released piece of the arguments as `{tool_calls: [{index: 0, function:
 * {arguments}}]}`. The `<tool_call>` markup around them is never sent.
 */
export class ToolCallDeltas {
  private text = '';
  private headerSent = false;

  constructor(private readonly plan: ToolCallPlan) {}

  /** The deltas for the next released content text, in order; none while only markup was released. */
  push(released: string): Array<Record<string, unknown>> {
    const from = this.text.length;
    this.text += released;
    const deltas: Array<Record<string, unknown>> = [];
    const argumentsStart = this.plan.prefix.length;
    if (!this.headerSent && this.text.length >= argumentsStart) {
      this.headerSent = true;
      deltas.push({
        tool_calls: [
          {
            index: 0,
            id: this.plan.id,
            type: 'function',
            function: { name: this.plan.name, arguments: '' },
          },
        ],
      });
    }
    const start = Math.max(from, argumentsStart);
    const end = Math.min(this.text.length, argumentsStart + this.plan.arguments.length);
    if (this.headerSent && end > start)
      deltas.push({
        tool_calls: [{ index: 0, function: { arguments: this.text.slice(start, end) } }],
      });
    return deltas;
  }
}
