import { putTokens } from '../../store/tokens.js';
import { parseScope } from '../scope.js';
import { issueTokens } from '../tokens.js';
import type { Grant } from './types.js';

/** RFC 6749 §4.4: the client acts for itself. No user, and no refresh token (§4.4.3). */
export const clientCredentials: Grant = {
  type: 'client_credentials',
  enabledBy: 'client_credentials',
  needs: () => ({}),
  async handle({ db, form, client, issuer }) {
    const scope = parseScope(form.get('scope'));
    const minted = await issueTokens({ db, issuer }, { client, scope, withRefresh: false });
    // A JWT access token of the client's own (RFC 9068) is written nowhere.
    if (minted.records.length > 0) await putTokens(db, minted.records);
    return minted;
  },
};
