import { putTokens } from '../../store/tokens.js';
import { parseScope } from '../scope.js';
import { mintTokens } from '../tokens.js';
import type { Grant } from './types.js';

/** RFC 6749 §4.4: the client acts for itself. No user, and no refresh token (§4.4.3). */
export const clientCredentials: Grant = {
  type: 'client_credentials',
  enabledBy: 'client_credentials',
  needs: () => ({}),
  async handle({ db, form, client }) {
    const minted = mintTokens({ client, scope: parseScope(form.get('scope')), withRefresh: false });
    await putTokens(db, minted.records);
    return minted;
  },
};
