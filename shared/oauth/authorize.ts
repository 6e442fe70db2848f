import { authorizePageError, authorizeRedirectError } from '../errors.js';
import type { RedirectTarget } from '../model.js';
import { type Client, getClient } from '../store/applications.js';
import type { Db } from '../store/db.js';
import { isValidPkceValue } from './pkce.js';

import { parseScope } from './scope.js';

export interface AuthorizeRequest extends RedirectTarget {
  client: Client;
  responseType: 'code' | 'token';
  scope?: string | undefined;
  codeChallenge?: string | undefined;
  /** The request's own parameters, carried through the consent form. */
  params: Map<string, string>;
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
  const responseType = params.get('response_type');
  const target: RedirectTarget = {
    redirectUri,
    mode: responseType === 'token' ? 'fragment' : 'query',
    state: params.get('state'),
  };
  const fail = (error: string, description: string) => authorizeRedirectError(target, error, description);
  if (repeated) throw fail('invalid_request', `Parameter ${repeated} is repeated.`);
  if (!responseType) throw fail('invalid_request', 'response_type is missing.');
  if (responseType !== 'code' && responseType !== 'token') {
    throw fail('unsupported_response_type', 'response_type must be code or token.');
  }
  const grant = responseType === 'code' ? 'authorization_code' : 'implicit';
  if (!client.grantTypes.includes(grant)) {
    throw fail('unauthorized_client', `This application has not enabled the ${grant} grant.`);
  }
  let scope: string | undefined;
  try {
    scope = parseScope(params.get('scope'));
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
  const kept = new Map([...params].filter(([k]) => PASSED_ON.includes(k)));
  return {
    ...target,
    client,
    responseType,
    scope,
    codeChallenge: responseType === 'code' ? challenge : undefined,
    params: kept,
  };
}
