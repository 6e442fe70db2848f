import { sha256 } from '../../crypto.js';
import { DISABLED } from '../../domain/accounts.js';
import { invalidGrant, invalidRequest } from '../../errors.js';
import { isLive, revokeGrant, rotateRefresh } from '../../store/tokens.js';
import { getUser } from '../../store/users.js';
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
    // A refresh token's value names nobody, so its user is read beside the rotation (no round
    // trip more). Disabling an account revokes its refresh tokens; this closes that window, and
    // refuses a deleted user's: the grant is revoked with what was just minted.
    const [outcome, holder] = await Promise.all([
      rotateRefresh(db, old, minted.records),
      old.userId !== undefined ? getUser(db, old.userId) : undefined,
    ]);
    if (outcome === 'replayed') {
      await revokeGrant(db, old.grantId);
      throw invalidGrant(REPLAYED);
    }
    if (outcome === 'revoked') throw invalidGrant('The refresh token is unknown, expired or revoked.');
    if (old.userId !== undefined && holder?.enabled !== true) {
      // The index may not show the new tokens yet: they are named.
      await revokeGrant(
        db,
        old.grantId,
        minted.records.map((r) => r.digest),
      );
      throw invalidGrant(holder ? DISABLED : 'The user of this refresh token no longer exists.');
    }
    return minted;
  },
};
