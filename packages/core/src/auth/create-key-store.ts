import type { ApiKeyIdentity, KeyStore } from '../ports/ports.js';
import type { KeyBudget, KeyLimits } from '../config/gateway-config.js';

/** A configured API key: the key string alone, or with a name for logs, an optional model allow-list, limits, a budget and the operator flag. */
export type KeyStoreEntry =
  | string
  | {
      key: string;
      name?: string;
      models?: readonly string[];
      limits?: KeyLimits;
      budget?: KeyBudget;
      operator?: boolean;
    };

interface StoredKey {
  hash: Uint8Array;
  identity: ApiKeyIdentity;
}

const encoder = new TextEncoder();

/** SHA-256 of a string's UTF-8 bytes, as 32 bytes. */
export type Sha256 = (text: string) => Uint8Array | Promise<Uint8Array>;

/** WebCrypto's digest: every runtime has it, but it is asynchronous (a job and a promise per call). */
async function webSha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

export interface KeyStoreOptions {
  /**
   * The digest to use. WebCrypto's by default; a runtime with a synchronous one passes it (on Node,
   * node:crypto's createHash, far cheaper than crypto.subtle.digest's job and promise per call).
   */
  sha256?: Sha256;
}

/** 0 when the two 32-byte digests are equal, else a non-zero value; reads every byte either way. */
function digestDifference(left: Uint8Array, right: Uint8Array): number {
  let difference = 0;
  for (let index = 0; index < left.length; index += 1)
    difference |= (left[index] as number) ^ (right[index] as number);
  return difference;
}

/** The identity whose digest equals `candidate`, comparing with every stored digest without stopping at a match. */
function matchingIdentity(
  candidate: Uint8Array,
  all: readonly StoredKey[],
): ApiKeyIdentity | undefined {
  let found = 0;
  let matchedIndex = 0;
  for (let index = 0; index < all.length; index += 1) {
    // isMatch is 1 when the difference is 0 and 0 otherwise, computed without a branch.
    const isMatch = ((digestDifference(candidate, (all[index] as StoredKey).hash) - 1) >>> 31) & 1;
    matchedIndex += isMatch * (1 - found) * index;
    found |= isMatch;
  }
  const identity = found === 1 ? all[matchedIndex]?.identity : undefined;
  return identity && { ...identity };
}

/**
 * A KeyStore over SHA-256 digests of the configured keys. A token's digest is compared with every
 * stored one, without stopping at a match or branching on the data, so neither a key's length nor a
 * shared prefix shows in the timing. Names default to `key-1`, `key-2`... by position; a key listed
 * twice: the first wins. A token that matched keeps its digest, so later requests skip the hash; only
 * configured keys get there, and what the cache's speed tells, the answer's status tells anyway.
 */
export function createKeyStore(
  keys: readonly KeyStoreEntry[],
  options: KeyStoreOptions = {},
): KeyStore {
  const sha256 = options.sha256 ?? webSha256;
  const identities = keys.map((entry, index) => {
    if ((typeof entry === 'string' ? entry : entry.key).length === 0)
      throw new TypeError(`API key ${index + 1} is empty`);
    const identity: ApiKeyIdentity = {
      name: typeof entry !== 'string' && entry.name ? entry.name : `key-${index + 1}`,
    };
    if (typeof entry !== 'string' && entry.models) identity.models = [...entry.models];
    if (typeof entry !== 'string' && entry.limits) identity.limits = { ...entry.limits };
    if (typeof entry !== 'string' && entry.operator === true) identity.operator = true;
    if (typeof entry !== 'string' && entry.budget) identity.budget = { ...entry.budget };
    return identity;
  });
  // Hashing starts at once so that no key string outlives this call (WebCrypto digests are asynchronous).
  const stored: Promise<StoredKey[]> = Promise.all(
    keys.map(async (entry, index) => ({
      hash: await sha256(typeof entry === 'string' ? entry : entry.key),
      identity: identities[index] as ApiKeyIdentity,
    })),
  );
  let storedNow: StoredKey[] | undefined;
  void stored.then((all) => {
    storedNow = all;
  });
  const verifiedDigests = new Map<string, Uint8Array>();

  const identityOf = (
    token: string,
    digest: Uint8Array,
    all: readonly StoredKey[],
  ): ApiKeyIdentity | undefined => {
    const identity = matchingIdentity(digest, all);
    if (identity !== undefined) verifiedDigests.set(token, digest);
    return identity;
  };
  const verifyLater = async (token: string, digest: Uint8Array | Promise<Uint8Array>) =>
    identityOf(token, await digest, await stored);

  return {
    verify(token: string): ApiKeyIdentity | undefined | Promise<ApiKeyIdentity | undefined> {
      if (token.length === 0) return undefined;
      const digest = verifiedDigests.get(token) ?? sha256(token);
      if (digest instanceof Promise || storedNow === undefined) return verifyLater(token, digest);
      return identityOf(token, digest, storedNow);
    },
  };
}
