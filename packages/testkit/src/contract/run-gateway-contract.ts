import { afterAll, beforeAll, describe } from 'vitest';
import { ContractClient, type StartedGateway } from './contract-client.js';
import { describeAbortContract } from './describe-abort-contract.js';
import { describeCatalogueContract } from './describe-catalogue-contract.js';
import { describeChatContract } from './describe-chat-contract.js';
import { describeEdgeContract } from './describe-edge-contract.js';
import { describeEmbeddingsContract } from './describe-embeddings-contract.js';
import { describeFuzzContract } from './describe-fuzz-contract.js';
import { describeImageEditFormsContract } from './describe-image-edit-forms-contract.js';
import { describeImagesContract } from './describe-images-contract.js';
import { describeResponsesContract } from './describe-responses-contract.js';

export interface GatewayContractOptions {
  /** Shown in the suite's title, e.g. `node-server, local backend over loopback`. */
  name: string;
  /**
   * Starts a gateway with docs/design.md's default limits and returns where it listens and a key it accepts.
   * Without an argument the gateway serves every catalogue model from the local backend (in-process or
   * over a socket, the caller's choice); with `upstreamUrl` every catalogue model goes to that origin
   * under its catalogue id (see `upstreamsServingEverything`).
   */
  start(upstreamUrl?: string): Promise<StartedGateway>;
  /**
   * A runtime that cannot see a client leave before the response has started (local workerd: see
   * cloudflare/workerd#5062) names the reason here. The test then runs as an expected failure, so it
   * still runs and turns red the day the runtime starts noticing, instead of being skipped.
   */
  earlyDisconnectUndetectable?: string;
}

/**
 * The contract every app of infergate passes: every endpoint of the spec over real HTTP, every stream
 * read to its end, envelopes, statuses, headers and the spec's resource shapes field by field, the
 * edge behaviour of docs/design.md, and client aborts reaching the upstream.
 */
export function runGatewayContract(options: GatewayContractOptions): void {
  describe(`gateway contract: ${options.name}`, () => {
    let gateway: StartedGateway | undefined;
    let client: ContractClient | undefined;
    const current = (): ContractClient => {
      if (!client) throw new Error('the gateway did not start');
      return client;
    };

    beforeAll(async () => {
      gateway = await options.start();
      client = new ContractClient(gateway);
    });

    afterAll(async () => {
      await gateway?.close();
    });

    describeChatContract(current);
    describeResponsesContract(current);
    describeEmbeddingsContract(current);
    describeImagesContract(current);
    describeImageEditFormsContract(current, (upstreamUrl) => options.start(upstreamUrl));
    describeCatalogueContract(current);
    describeEdgeContract(current);
    describeFuzzContract(current);
    describeAbortContract(
      (upstreamUrl) => options.start(upstreamUrl),
      options.earlyDisconnectUndetectable,
    );
  });
}
