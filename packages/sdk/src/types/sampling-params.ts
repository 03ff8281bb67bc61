/** The spec's "Extra sampling parameters" and the sampling parameters both text endpoints share, as core declares them. */
export type { ExtraSamplingParams, SamplingParams } from '@infergate/core';
