import { constantTimeEqual, sha256 } from '../crypto.js';
import { invalidClient, invalidRequest } from '../errors.js';
import type { Client } from '../store/applications.js';

/** What the client presented: its id and the secret as sent (one or two readings of it). */
export interface PresentedClient {
  clientId: string;
  /** The secret as sent and, for Basic, form-url-decoded (RFC 6749 §2.3.1); either may match. */
  secrets: string[];
  method: 'client_secret_basic' | 'client_secret_post';
}

function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/**
 * Reads client credentials from HTTP Basic (the Authorization header's value) or from the body
 * (RFC 6749 §2.3.1). Basic components are form-url-encoded per the RFC, but many clients send
 * them raw, so both readings are tried. Using both methods at once is refused (RFC 6749 §2.3:
 * "MUST NOT use more than one").
 */
export function presentedClient(
  authorization: string | undefined,
  form: Map<string, string>,
): PresentedClient {
  const bodyId = form.get('client_id');
  const bodySecret = form.get('client_secret');
  if (authorization !== undefined && /^basic\s/i.test(authorization)) {
    if (bodySecret !== undefined) {
      throw invalidRequest('Client credentials were sent both in the Authorization header and in the body.');
    }
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon <= 0) throw invalidClient('The Basic credentials are not client_id:client_secret.');
    const rawId = decoded.slice(0, colon);
    const rawSecret = decoded.slice(colon + 1);
    const clientId = formDecode(rawId);
    if (bodyId !== undefined && bodyId !== clientId && bodyId !== rawId) {
      throw invalidRequest('client_id in the body differs from the one in the Authorization header.');
    }
    return {
      clientId,
      secrets: [...new Set([formDecode(rawSecret), rawSecret])],
      method: 'client_secret_basic',
    };
  }
  if (authorization !== undefined && authorization.trim() !== '') {
    throw invalidClient('Only HTTP Basic client authentication is supported in the Authorization header.');
  }
  if (!bodyId)
    throw invalidClient('Client authentication is required (HTTP Basic or client_id and client_secret).');
  if (bodySecret === undefined) throw invalidClient('client_secret is missing.');
  return { clientId: bodyId, secrets: [bodySecret], method: 'client_secret_post' };
}

/**
 * Checks the presented secret against the client (read by the caller, usually batched with what
 * the grant needs). Secrets are compared as SHA-256 digests in constant time.
 */
export function verifyClient(client: Client | undefined, presented: PresentedClient): Client {
  if (!client) {
    // Burn the same work as a real comparison so an unknown id is not told apart by timing.
    constantTimeEqual(sha256(presented.secrets[0] ?? ''), sha256('unknown'));
    throw invalidClient('Unknown client or wrong client secret.');
  }
  const ok = presented.secrets.some((s) => constantTimeEqual(sha256(s), client.secretHash));
  if (!ok) throw invalidClient('Unknown client or wrong client secret.');
  return client;
}
