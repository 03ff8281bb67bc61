/**
 * An error in vLLM's envelope (since v0.10.1): `{"error": {message, type, param, code}}` where `code` is the
 * integer HTTP status, not an OpenAI string code.
 */
export class VllmError extends Error {
  readonly status: number;
  readonly type: string;
  readonly param: string | null;

  constructor(status: number, type: string, message: string, param: string | null = null) {
    super(message);
    this.name = 'VllmError';
    this.status = status;
    this.type = type;
    this.param = param;
  }

  static badRequest(message: string, param: string | null = null): VllmError {
    return new VllmError(400, 'BadRequestError', message, param);
  }

  /** pydantic validation failures: vLLM reports the HTTP phrase as the type and a dotted body path. */
  static validation(message: string, param: string): VllmError {
    return new VllmError(400, 'Bad Request', message, param);
  }

  /** One pydantic field error, as vLLM words it: `1 validation error: body.<path>: <message>`. */
  static invalidField(path: string, message: string): VllmError {
    return VllmError.validation(`1 validation error: body.${path}: ${message}`, `body.${path}`);
  }

  static modelNotFound(model: string): VllmError {
    return new VllmError(404, 'NotFoundError', `The model \`${model}\` does not exist.`, 'model');
  }

  static internal(message: string): VllmError {
    return new VllmError(500, 'InternalServerError', message);
  }

  toBody(): { error: { message: string; type: string; param: string | null; code: number } } {
    return {
      error: { message: this.message, type: this.type, param: this.param, code: this.status },
    };
  }

  toResponse(): Response {
    return Response.json(this.toBody(), { status: this.status });
  }
}
