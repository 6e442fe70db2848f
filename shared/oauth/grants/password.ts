import { checkPassword, credentialKeys } from '../../domain/accounts.js';
import { AppError } from '../../errors.js';
import { putTokens } from '../../store/tokens.js';
import { invalidGrant, invalidRequest } from '../errors.js';
import { parseScope } from '../scope.js';
import { mintTokens } from '../tokens.js';
import { type Grant, required } from './types.js';

/**
 * RFC 6749 §4.3: resource owner password credentials. The password check is the portal's own,
 * with the shared brute-force guard: after 5 failures in 15 minutes the account is locked and the
 * password is not checked. Every failure is the same invalid_grant, whether or not the email exists.
 */
export const password: Grant = {
  type: 'password',
  enabledBy: 'password',
  keys(form) {
    const username = required(form, 'username', invalidRequest).trim().toLowerCase();
    required(form, 'password', invalidRequest);
    return credentialKeys(username);
  },
  async handle({ db, form, client, items }) {
    const scope = parseScope(form.get('scope'));
    let userId: number;
    try {
      userId = await checkPassword(db, form.get('username')!, form.get('password')!, items);
    } catch (error) {
      if (error instanceof AppError && (error.kind === 'unauthorized' || error.kind === 'too_many')) {
        throw invalidGrant(error.message);
      }
      throw error;
    }
    const minted = mintTokens({
      client,
      userId,
      scope,
      withRefresh: client.grantTypes.includes('refresh_token'),
    });
    await putTokens(db, minted.records);
    return minted;
  },
};
