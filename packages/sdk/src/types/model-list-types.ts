import type { ModelObject } from '@infergate/core';

/** One entry of GET /v1/models: the completion API's Model plus what the gateway's catalogue knows. */
export type Model = ModelObject;

export interface ModelList {
  object: 'list';
  data: Model[];
}
