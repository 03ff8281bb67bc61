/** TEI's native error body: `{"error": str, "error_type": str}`, the type being the Rust enum variant name. */
export type TeiErrorType =
  'Validation' | 'Empty' | 'Tokenizer' | 'Backend' | 'Overloaded' | 'Unhealthy';

const statusByType: Record<TeiErrorType, number> = {
  Empty: 400,
  // TEI 1.9.x answers 422 for validation (older releases 413).
  Validation: 422,
  Tokenizer: 422,
  Backend: 424,
  Overloaded: 429,
  Unhealthy: 503,
};

export class TeiError extends Error {
  readonly errorType: TeiErrorType;

  constructor(errorType: TeiErrorType, message: string) {
    super(message);
    this.name = 'TeiError';
    this.errorType = errorType;
  }

  toResponse(): Response {
    return Response.json(
      { error: this.message, error_type: this.errorType },
      { status: statusByType[this.errorType] },
    );
  }
}
