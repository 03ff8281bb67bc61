// The client-library suites, apart from the main entry: the SDKs they drive (openai, cohere-ai,
// @anthropic-ai/sdk, the agent frameworks) take seconds to load, and every test file that imports the
// kit would pay for them.
export { runClientCompatibility } from './contract/run-client-compatibility.js';
export type { ClientCompatibilityOptions } from './contract/run-client-compatibility.js';
export { runAgentClientCompatibility } from './contract/run-agent-client-compatibility.js';
export type { AgentClientCompatibilityOptions } from './contract/run-agent-client-compatibility.js';
export { runMessagesContract } from './contract/run-messages-contract.js';
export type { MessagesContractOptions } from './contract/run-messages-contract.js';
