import { defaultCatalogue } from '@infergate/core';
import type { ModelEntry, ModelKind } from '@infergate/core';
import { VllmError } from '../http/vllm-error.js';
import type { LocalBackendOptions } from '../local-backend-options.js';

/** Context window given to extra models that name none: the catalogue's 32K. */
const defaultExtraContextWindow = 32_768;

export interface ServedModel {
  id: string;
  kind: ModelKind;
  contextWindow: number | null;
  entry: ModelEntry | undefined;
}

/** The models this backend serves: every catalogue model (not virtual ids) plus the extra ones (text-like). */
export class ModelRegistry {
  private readonly models = new Map<string, ServedModel>();

  constructor(options: LocalBackendOptions) {
    for (const entry of defaultCatalogue.models.values()) {
      this.models.set(entry.id, {
        id: entry.id,
        kind: entry.kind,
        contextWindow: entry.contextWindow ?? null,
        entry,
      });
    }
    for (const [id, extra] of Object.entries(options.models ?? {})) {
      this.models.set(id, {
        id,
        kind: 'text',
        contextWindow: extra.contextWindow ?? defaultExtraContextWindow,
        entry: undefined,
      });
    }
  }

  list(): ServedModel[] {
    return [...this.models.values()];
  }

  /** Resolves a model id or fails with vLLM's 404 NotFoundError. */
  resolve(id: string | undefined): ServedModel {
    if (id === undefined)
      throw VllmError.validation('1 validation error: body.model: Field required', 'body.model');
    const model = this.models.get(id);
    if (model === undefined) throw VllmError.modelNotFound(id);
    return model;
  }

  /** Resolves and checks that a catalogue model is of a kind the endpoint runs; extra models serve every route. */
  resolveKind(id: string | undefined, kinds: readonly ModelKind[], api: string): ServedModel {
    const model = this.resolve(id);
    if (model.entry !== undefined && !kinds.includes(model.kind)) {
      throw VllmError.badRequest(
        `The model \`${model.id}\` does not support the ${api} API.`,
        'model',
      );
    }
    return model;
  }
}
