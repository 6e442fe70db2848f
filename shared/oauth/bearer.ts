import { invalidBearerRequest, missingBearer } from '../errors.js';

/**
 * The access token of a protected-resource request: `Authorization: Bearer` (RFC 6750 §2.1) or
 * the `access_token` query parameter (§2.3, what Keyrock's clients use). Both at once is
 * invalid_request (§2: "MUST NOT use more than one method").
 */
export function bearerValue(authorization: string | undefined, query: Map<string, string>): string {
  const fromHeader =
    authorization !== undefined && /^bearer\s+/i.test(authorization)
      ? authorization.replace(/^bearer\s+/i, '').trim()
      : undefined;
  const fromQuery = query.get('access_token');
  if (fromHeader !== undefined && fromQuery !== undefined) {
    throw invalidBearerRequest(
      'Send the access token either in the Authorization header or in the query, not both.',
    );
  }
  const value = fromHeader ?? fromQuery;
  if (value === undefined || value === '') throw missingBearer();
  return value;
}
