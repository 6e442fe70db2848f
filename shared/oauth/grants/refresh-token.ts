import { sha256 } from '../../crypto.js';
import { invalidGrant, invalidRequest } from '../../errors.js';
import { isLive, revokeGrant, rotateRefresh } from '../../store/tokens.js';
import { narrowScope, parseScope } from '../scope.js';
import { issueTokens } from '../tokens.js';
import { type Grant, required } from './types.js';

const REPLAYED = 'The refresh token was already used; every token of this grant is revoked.';

/**
 * RFC 6749 §6 with rotation (RFC 9700 §4.14): each use returns a new refresh token in the same
 * chain and retires the old one; presenting a retired one revokes the whole chain, since either
 * the client or an attacker holds a stolen copy.
 */
export const refreshToken: Grant = {
  type: 'refresh_token',
  enabledBy: 'refresh_token',
  needs(form) {
    return { token: sha256(required(form, 'refresh_token', invalidRequest)) };
  },
  async handle({ db, form, client, read, issuer }) {
    const old = read.token;
    if (old?.kind !== 'refresh' || old.clientId !== client.clientId) {
      throw invalidGrant('The refresh token is unknown, expired or revoked.');
    }
    if (old.rotated && !old.revoked) {
      await revokeGrant(db, old.grantId);
      throw invalidGrant(REPLAYED);
    }
    if (!isLive(old)) throw invalidGrant('The refresh token is unknown, expired or revoked.');
    const scope = narrowScope(old.scope, parseScope(form.get('scope')));
    const minted = await issueTokens(
      { db, issuer },
      { client, userId: old.userId, scope, grantId: old.grantId, withRefresh: true },
    );
    const outcome = await rotateRefresh(db, old, minted.records);
    if (outcome === 'replayed') {
      await revokeGrant(db, old.grantId);
      throw invalidGrant(REPLAYED);
    }
    if (outcome === 'revoked') throw invalidGrant('The refresh token is unknown, expired or revoked.');
    return minted;
  },
};
