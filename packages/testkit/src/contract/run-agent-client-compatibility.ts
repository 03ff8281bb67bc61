import { afterAll, beforeAll, describe } from 'vitest';
import type { StartedGateway } from './contract-client.js';
import { describeAiSdkClients } from './describe-ai-sdk-clients.js';
import { describeLangChainClients } from './describe-langchain-clients.js';
import { describeOpenAIAgentsClients } from './describe-openai-agents-clients.js';
import { describeOpenAIParseClients } from './describe-openai-parse-clients.js';
import { describeStatelessAgentRequest } from './describe-stateless-agent-request.js';

export interface AgentClientCompatibilityOptions {
  name: string;
  /** A gateway whose models are served by the embedded local backend, which answers tool calls and JSON. */
  start(): Promise<StartedGateway>;
}

/**
 * The agent frameworks most applications are built on, unchanged, against the gateway: tool loops,
 * structured output, streamed runs and second turns built from the first turn's history.
 */
export function runAgentClientCompatibility(options: AgentClientCompatibilityOptions): void {
  describe(`agent frameworks and structured output: ${options.name}`, () => {
    let gateway: StartedGateway | undefined;
    const started = (): StartedGateway => {
      if (!gateway) throw new Error('the gateway did not start');
      return gateway;
    };

    beforeAll(async () => {
      gateway = await options.start();
    });

    afterAll(async () => {
      await gateway?.close();
    });

    describeOpenAIAgentsClients(started);
    describeAiSdkClients(started);
    describeLangChainClients(started);
    describeOpenAIParseClients(started);
    describeStatelessAgentRequest(started);
  });
}
