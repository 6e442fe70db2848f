/**
 * An OAuth 2.0 error (RFC 6749 §5.2, RFC 6750 §3, RFC 7009 §2.2.1), answered as
 * `{error, error_description}` with the status and headers the RFC asks for.
 */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}
