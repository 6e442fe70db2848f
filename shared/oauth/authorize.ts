import { authorizePageError, authorizeRedirectError } from '../errors.js';
import { RESPONSE_TYPES, type RedirectTarget, type ResponseType } from '../model.js';
import { parseMaxAge, parsePrompt } from '../oidc/prompt.js';
import { type Client, getClient } from '../store/applications.js';
import type { Db } from '../store/db.js';
import { isValidPkceValue } from './pkce.js';
import { parseScope } from './scope.js';
import { tokenTypeOf } from './tokens.js';

export interface AuthorizeRequest extends RedirectTarget {
  client: Client;
  responseType: ResponseType;
  scope?: string | undefined;
  codeChallenge?: string | undefined;
  /** OpenID Connect (OIDC Core §3.1.2.1): echoed in the ID token. */
  nonce?: string | undefined;
  /** OIDC Core §3.1.2.1: none, login, consent, select_account (one account: a no-op). */
  prompt: Set<string>;
  /** OIDC Core §3.1.2.1: the longest time since the user signed in, in seconds. */
  maxAge?: number | undefined;
  /** The request's own parameters, carried through the consent form. */
  params: Map<string, string>;
}

/** The order of a response type's words does not matter (RFC 6749 §3.1.1). */
function responseTypeOf(raw: string): ResponseType | undefined {
  const sorted = raw.split(' ').filter(Boolean).sort().join(' ');
  return RESPONSE_TYPES.find((t) => t === sorted);
}

/** Parameters each at most once (RFC 6749 §3.1); a repetition is reported once the client is known. */
export function authorizeParams(search: URLSearchParams): { params: Map<string, string>; repeated?: string } {
  const params = new Map<string, string>();
  let repeated: string | undefined;
  for (const [name, value] of search) {
    if (params.has(name)) repeated ??= name;
    else params.set(name, value);
  }
  return { params, ...(repeated ? { repeated } : {}) };
}

const PASSED_ON = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
  'nonce',
  'prompt',
  'max_age',
];

/**
 * Validation of an authorization request (RFC 6749 §4.1.1, §4.2.1, RFC 7636 §4.3). Until the
 * client and its redirect URI are known good, errors are shown to the user and never redirected
 * (§4.1.2.1: an attacker must not be able to bounce users to an arbitrary URI); after that they
 * go back to the client, in the query for `code` and in the fragment for `token`.
 */
export async function validateAuthorizeRequest(db: Db, search: URLSearchParams): Promise<AuthorizeRequest> {
  const { params, repeated } = authorizeParams(search);
  const clientId = params.get('client_id');
  if (!clientId) throw authorizePageError('invalid_request', 'client_id is missing.');
  if (repeated === 'client_id' || repeated === 'redirect_uri') {
    throw authorizePageError('invalid_request', `Parameter ${repeated} is repeated.`);
  }
  const client = clientId.length <= 200 ? await getClient(db, clientId) : undefined;
  if (!client) throw authorizePageError('invalid_client', 'No application has this client_id.');
  const redirectUri = params.get('redirect_uri');
  if (!redirectUri) throw authorizePageError('invalid_request', 'redirect_uri is missing.');
  // RFC 6749 §3.1.2.3 / RFC 9700 §4.1.3: exact string comparison, no normalisation.
  if (redirectUri !== client.callbackUrl) {
    throw authorizePageError(
      'invalid_request',
      'redirect_uri is not the callback URL registered for this application.',
    );
  }
  const rawType = params.get('response_type');
  const responseType = rawType === undefined ? undefined : responseTypeOf(rawType);
  const target: RedirectTarget = {
    redirectUri,
    // RFC 6749 §4.2.2 and OIDC Core §3.2.2.5: whatever carries a token goes in the fragment.
    mode: responseType && responseType !== 'code' ? 'fragment' : 'query',
    state: params.get('state'),
  };
  const fail = (error: string, description: string) => authorizeRedirectError(target, error, description);
  if (repeated) throw fail('invalid_request', `Parameter ${repeated} is repeated.`);
  if (!rawType) throw fail('invalid_request', 'response_type is missing.');
  if (!responseType) {
    throw fail('unsupported_response_type', 'response_type must be code, token, id_token or id_token token.');
  }
  const grant = responseType === 'code' ? 'authorization_code' : 'implicit';
  if (!client.grantTypes.includes(grant)) {
    throw fail('unauthorized_client', `This application has not enabled the ${grant} grant.`);
  }
  let scope: string | undefined;
  try {
    scope = parseScope(params.get('scope'));
    // Keyrock's token types (jwt, permanent) are checked here too, before anyone signs in.
    tokenTypeOf(client, scope);
  } catch (error) {
    throw fail('invalid_scope', (error as Error).message);
  }
  const challenge = params.get('code_challenge');
  const method = params.get('code_challenge_method');
  if (responseType === 'code' && (challenge !== undefined || method !== undefined)) {
    if (!challenge) throw fail('invalid_request', 'code_challenge_method was sent without code_challenge.');
    // RFC 7636 §4.4.1: only S256 is supported; "plain" offers no protection against a stolen code.
    if (method !== 'S256') throw fail('invalid_request', 'code_challenge_method must be S256.');
    if (!isValidPkceValue(challenge)) {
      throw fail('invalid_request', 'code_challenge must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~.');
    }
  }
  const prompt = parsePrompt(params.get('prompt'));
  if (typeof prompt === 'string') throw fail('invalid_request', prompt);
  const maxAge = parseMaxAge(params.get('max_age'));
  if (typeof maxAge === 'string') throw fail('invalid_request', maxAge);
  const nonce = params.get('nonce');
  if (nonce !== undefined && (nonce === '' || nonce.length > 512)) {
    throw fail('invalid_request', 'nonce must be 1 to 512 characters.');
  }
  if (responseType.startsWith('id_token')) {
    // OIDC Core §3.2.2.1: an ID token is only for an OpenID Connect request, and a nonce is
    // REQUIRED in the implicit flow (it is what binds the token to the client's session).
    if (!scope?.split(' ').includes('openid')) {
      throw fail('invalid_request', 'response_type id_token needs the openid scope.');
    }
    if (nonce === undefined) throw fail('invalid_request', 'nonce is required for response_type id_token.');
  }
  const kept = new Map([...params].filter(([k]) => PASSED_ON.includes(k)));
  return {
    ...target,
    client,
    responseType,
    scope,
    codeChallenge: responseType === 'code' ? challenge : undefined,
    nonce,
    prompt,
    maxAge,
    params: kept,
  };
}
