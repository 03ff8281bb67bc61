export { startRecordingUpstream } from './start-recording-upstream.js';
export type {
  RecordingUpstream,
  RecordingUpstreamOptions,
  UpstreamHandler,
} from './start-recording-upstream.js';
export { startScriptedUpstream } from './start-scripted-upstream.js';
export type { ScriptedUpstream, ScriptedUpstreamOptions } from './start-scripted-upstream.js';
export { parseScript } from './parse-script.js';
export type { Script } from './parse-script.js';
export type { RecordedRequest } from './recorded-request.js';
export { defaultUpstreamHandlers, fakeAnswer } from './default-upstream-handlers.js';
export * from './vllm-payloads.js';
export { recordedAnswer, recordedServerPayloads } from './recorded-server-payloads.js';
export type { RecordedServerPayload } from './recorded-server-payloads.js';
export { serveRecordedPayload } from './serve-recorded-payload.js';
export { writeChatSse, writeJson } from './write-json.js';
export { parseSseText, readSse } from './read-sse.js';
export type { ReceivedEvent } from './read-sse.js';
export { openIdleConnection } from './open-idle-connection.js';
export type { IdleConnection } from './open-idle-connection.js';
export { rawHttpRequest } from './raw-http-request.js';
export type { RawHttpRequestOptions, RawHttpResponse } from './raw-http-request.js';
export { upstreamsServingEverything } from './upstreams-serving-everything.js';
export type { UpstreamFileEntry } from './upstreams-serving-everything.js';
export { runGatewayContract } from './contract/run-gateway-contract.js';
export type { GatewayContractOptions } from './contract/run-gateway-contract.js';
export { ContractClient, asArray, asRecord, toJsonReply } from './contract/contract-client.js';
export type {
  JsonReply,
  LoggedGateway,
  RequestOptions,
  StartedGateway,
  StartLoggedGateway,
} from './contract/contract-client.js';
export { expectCompatError, expectNativeError } from './contract/expect-envelopes.js';
export { imageSize, pngDataUrl } from './contract/test-images.js';
export { specCatalogueIds, specVirtualIds } from './contract/spec-catalogue.js';
export { describeCorsContract } from './contract/describe-cors-contract.js';
export { runFallbackContract } from './contract/describe-fallback-contract.js';
export { runCostContract } from './contract/describe-cost-contract.js';
export type { CostContractOptions } from './contract/describe-cost-contract.js';
export { runKeyReloadContract } from './contract/describe-key-reload-contract.js';
export type {
  KeyReloadContractOptions,
  ReloadableProcess,
} from './contract/describe-key-reload-contract.js';
export { runBudgetContract } from './contract/describe-budget-contract.js';
export type { BudgetContractOptions } from './contract/describe-budget-contract.js';
export type { FallbackContractOptions } from './contract/describe-fallback-contract.js';
export type { StartWithConfig } from './contract/describe-cors-contract.js';
export type { ConfigFileValue, FaultMatrixTarget } from './fault-matrix/fault-matrix-target.js';
export { describeHostileBodyRow } from './fault-matrix/describe-hostile-body-row.js';
export { describeInputRows, jpegHeader, pngHeader } from './fault-matrix/describe-input-rows.js';
export { recordFigure, quantile } from './fault-matrix/record-figure.js';
export { pushRawRequest, rawJsonReply, rawResponseJson } from './fault-matrix/push-raw-request.js';
export type { RawPushResult } from './fault-matrix/push-raw-request.js';
export { imageFields, validBodies } from './fault-matrix/route-bodies.js';
export type { ImageField } from './fault-matrix/route-bodies.js';
export {
  closedPort,
  describeUpstreamRows,
  readTimed,
} from './fault-matrix/describe-upstream-rows.js';
export { settledMemoryMb, signedMb, type SettledMemory } from './fault-matrix/settled-memory.js';
export { splitFrames, splitStreamText } from './split-stream-text.js';
export { describeSafetyRows } from './fault-matrix/describe-safety-rows.js';
export { describeBodyAdmissionRows } from './fault-matrix/describe-body-admission-rows.js';
export { streamBodyWithNodeHttp } from './fault-matrix/stream-body-with-node-http.js';
export type { StreamedBodyOutcome } from './fault-matrix/stream-body-with-node-http.js';
export { describeNetworkRows } from './fault-matrix/describe-network-rows.js';
export { describeEventLoopRows } from './fault-matrix/describe-event-loop-rows.js';
export { describeProtocolEdgeRows } from './fault-matrix/describe-protocol-edge-rows.js';
export { secretForms } from './fault-matrix/secret-forms.js';
