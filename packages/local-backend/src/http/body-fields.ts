import { VllmError } from './vllm-error.js';

/**
 * Typed readers over an untrusted JSON object. vLLM accepts and ignores unknown keys (pydantic extra="allow"),
 * so only the fields we read are checked; a wrong type is vLLM's 400 validation error naming `body.<field>`.
 */
export class BodyFields {
  constructor(private readonly body: Record<string, unknown>) {}

  has(name: string): boolean {
    return this.body[name] !== undefined && this.body[name] !== null;
  }

  raw(name: string): unknown {
    return this.body[name];
  }

  string(name: string): string | undefined {
    const value = this.body[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw invalid(name, 'Input should be a valid string');
    return value;
  }

  requiredString(name: string): string {
    const value = this.string(name);
    if (value === undefined) throw invalid(name, 'Field required');
    return value;
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.body[name];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'boolean') throw invalid(name, 'Input should be a valid boolean');
    return value;
  }

  integer(name: string): number | undefined {
    const value = this.body[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value))
      throw invalid(name, 'Input should be a valid integer');
    return value;
  }

  number(name: string): number | undefined {
    const value = this.body[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw invalid(name, 'Input should be a valid number');
    return value;
  }

  integerList(name: string): number[] {
    const value = this.body[name];
    if (value === undefined || value === null) return [];
    if (
      !Array.isArray(value) ||
      !value.every((item) => typeof item === 'number' && Number.isInteger(item))
    ) {
      throw invalid(name, 'Input should be a valid list of integers');
    }
    return value as number[];
  }

  stringList(name: string): string[] {
    const value = this.body[name];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
      throw invalid(name, 'Input should be a valid list of strings');
    }
    return value as string[];
  }

  /** `stop` is `str | list[str] | null` in vLLM. */
  stringOrList(name: string): string[] {
    const value = this.body[name];
    if (typeof value === 'string') return [value];
    return this.stringList(name);
  }

  object(name: string): Record<string, unknown> | undefined {
    const value = this.body[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'object' || Array.isArray(value))
      throw invalid(name, 'Input should be a valid dictionary');
    return value as Record<string, unknown>;
  }
}

function invalid(name: string, message: string): VllmError {
  return VllmError.invalidField(name, message);
}
