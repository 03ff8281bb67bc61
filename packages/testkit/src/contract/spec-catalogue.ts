/** The catalogue ids of the spec's tables ("Model catalogue"), written out here rather than taken from core. */
export const specCatalogueIds = [
  'beta53-flash-chat',
  'beta53-flash-chat-low',
  'beta53-flash-agent',
  'beta53-flash-agent-low',
  'alpha35-122b-a10b-instruct-general',
  'alpha35-122b-a10b-instruct-creative',
  'alpha35-122b-a10b-thinking-general',
  'alpha35-122b-a10b-thinking-coding',
  'alpha36-35b-a3b-instruct',
  'alpha36-35b-a3b-thinking-general',
  'alpha36-35b-a3b-thinking-coding',
  'alpha3-vl-embedding-8b',
  'gamma-m3',
  'gamma-reranker-v2-m3',
  'alpha-image',
  'alpha-image-pe',
  'alpha-image-edit',
  'alpha-image-edit-pe',
] as const;

/** The spec's default virtual models. */
export const specVirtualIds = [
  'coding-max',
  'coding-max-thinking',
  'general-max',
  'general-max-thinking',
  'coding-pro-thinking',
  'general-pro',
  'general-pro-thinking',
  'coding-std-thinking',
  'general-std',
  'general-std-thinking',
  'image-pro',
  'image-pro-edit',
] as const;
