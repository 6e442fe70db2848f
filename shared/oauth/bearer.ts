import { sha256 } from '../crypto.js';
import { invalidBearerRequest, invalidToken, missingBearer } from '../errors.js';
import type { Db } from '../store/db.js';
import { getToken, isLive, type TokenRecord } from '../store/tokens.js';

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

/** One strongly consistent GetItem; an unknown, expired, revoked or refresh token is refused. */
export async function requireAccessToken(db: Db, value: string): Promise<TokenRecord> {
  const token = value.length <= 200 ? await getToken(db, sha256(value)) : undefined;
  if (token?.kind !== 'access' || !isLive(token)) {
    throw invalidToken('The access token is unknown, expired or revoked.');
  }
  return token;
}
