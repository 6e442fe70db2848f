import { refusalDescription, verifyPassword } from '../../domain/accounts.js';
import { invalidGrant, invalidRequest } from '../../errors.js';
import { putTokens } from '../../store/tokens.js';
import { parseScope } from '../scope.js';
import { issueTokens } from '../tokens.js';
import { type Grant, required } from './types.js';

/**
 * RFC 6749 §4.3: resource owner password credentials. The password check is the portal's own,
 * with the shared brute-force guard: after 5 failures in 15 minutes the account is locked and the
 * password is not checked. Every failure is the same invalid_grant, whether or not the email exists.
 */
export const password: Grant = {
  type: 'password',
  enabledBy: 'password',
  needs(form) {
    const username = required(form, 'username', invalidRequest).trim().toLowerCase();
    required(form, 'password', invalidRequest);
    return { email: username };
  },
  async handle({ db, form, client, read, issuer }) {
    const scope = parseScope(form.get('scope'));
    const check = await verifyPassword(db, form.get('username')!, form.get('password')!, read.credentials);
    // RFC 6749 §5.2: wrong credentials, a locked account and an unverified email are invalid_grant.
    if (!check.ok) throw invalidGrant(refusalDescription(check.reason));
    const minted = await issueTokens(
      { db, issuer },
      {
        client,
        userId: check.userId,
        scope,
        withRefresh: client.grantTypes.includes('refresh_token'),
      },
    );
    await putTokens(db, minted.records);
    return minted;
  },
};
