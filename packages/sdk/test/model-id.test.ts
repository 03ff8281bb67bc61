/// <reference types="node" />
import { defaultCatalogue } from '@infergate/core';
import { describe, expect, it } from 'vitest';
import type {
  KnownEmbeddingModelId,
  KnownImageEditModelId,
  KnownImageGenerationModelId,
  KnownModelId,
  KnownRerankModelId,
  KnownTextModelId,
  KnownVirtualTextModelId,
} from '../src/index.js';

// `satisfies Record<KnownModelId, true>` fails to compile if an id is missing here or is not in the
// union, so this list is exactly the SDK's literal union.
const knownIds = {
  'beta53-flash-chat': true,
  'beta53-flash-chat-low': true,
  'beta53-flash-agent': true,
  'beta53-flash-agent-low': true,
  'alpha35-122b-a10b-instruct-general': true,
  'alpha35-122b-a10b-instruct-creative': true,
  'alpha35-122b-a10b-thinking-general': true,
  'alpha35-122b-a10b-thinking-coding': true,
  'alpha36-35b-a3b-instruct': true,
  'alpha36-35b-a3b-thinking-general': true,
  'alpha36-35b-a3b-thinking-coding': true,
  'alpha3-vl-embedding-8b': true,
  'gamma-m3': true,
  'gamma-reranker-v2-m3': true,
  'alpha-image': true,
  'alpha-image-pe': true,
  'alpha-image-edit': true,
  'alpha-image-edit-pe': true,
  'coding-max': true,
  'coding-max-thinking': true,
  'general-max': true,
  'general-max-thinking': true,
  'coding-pro-thinking': true,
  'general-pro': true,
  'general-pro-thinking': true,
  'coding-std-thinking': true,
  'general-std': true,
  'general-std-thinking': true,
  'image-pro': true,
  'image-pro-edit': true,
} satisfies Record<KnownModelId, true>;

describe('KnownModelId', () => {
  it('is exactly core’s default catalogue plus its virtual models', () => {
    const catalogue = [...defaultCatalogue.models.keys(), ...defaultCatalogue.virtualModels.keys()];
    expect(Object.keys(knownIds).sort()).toEqual(catalogue.sort());
  });
});

const byKind = {
  text: {
    'beta53-flash-chat': true,
    'beta53-flash-chat-low': true,
    'beta53-flash-agent': true,
    'beta53-flash-agent-low': true,
    'alpha35-122b-a10b-instruct-general': true,
    'alpha35-122b-a10b-instruct-creative': true,
    'alpha35-122b-a10b-thinking-general': true,
    'alpha35-122b-a10b-thinking-coding': true,
    'alpha36-35b-a3b-instruct': true,
    'alpha36-35b-a3b-thinking-general': true,
    'alpha36-35b-a3b-thinking-coding': true,
  } satisfies Record<KnownTextModelId, true>,
  embedding: { 'alpha3-vl-embedding-8b': true, 'gamma-m3': true } satisfies Record<
    KnownEmbeddingModelId,
    true
  >,
  rerank: { 'gamma-reranker-v2-m3': true } satisfies Record<KnownRerankModelId, true>,
  'image-generation': {
    'alpha-image': true,
    'alpha-image-pe': true,
    'image-pro': true,
  } satisfies Record<KnownImageGenerationModelId, true>,
  'image-edit': {
    'alpha-image-edit': true,
    'alpha-image-edit-pe': true,
    'image-pro-edit': true,
  } satisfies Record<KnownImageEditModelId, true>,
};
const virtualText = {
  'coding-max': true,
  'coding-max-thinking': true,
  'general-max': true,
  'general-max-thinking': true,
  'coding-pro-thinking': true,
  'general-pro': true,
  'general-pro-thinking': true,
  'coding-std-thinking': true,
  'general-std': true,
  'general-std-thinking': true,
} satisfies Record<KnownVirtualTextModelId, true>;

describe('the per-endpoint model id unions', () => {
  it('group catalogue and virtual ids by the kind of model they resolve to', () => {
    const kindOf = (id: string) =>
      defaultCatalogue.models.get(defaultCatalogue.virtualModels.get(id) ?? id)?.kind;
    for (const [kind, ids] of Object.entries(byKind)) {
      for (const id of Object.keys(ids)) expect(kindOf(id), id).toBe(kind);
    }
    for (const id of Object.keys(virtualText)) {
      expect(defaultCatalogue.virtualModels.has(id), id).toBe(true);
      expect(kindOf(id), id).toBe('text');
    }
  });
});
