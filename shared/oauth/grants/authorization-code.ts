import { config } from '../../config.js';
import { sha256 } from '../../crypto.js';
import { DISABLED } from '../../domain/accounts.js';
import { invalidGrant, invalidRequest } from '../../errors.js';
import { isOpenIdScope } from '../../oidc/claims.js';
import { userIdToken } from '../../oidc/id-token.js';
import { keySet } from '../../oidc/keys.js';
import { getCode, isLive, redeemCode, revokeGrant } from '../../store/tokens.js';
import { getUser } from '../../store/users.js';
import { isValidPkceValue, verifyPkce } from '../pkce.js';
import { issueTokens } from '../tokens.js';
import { type Grant, required } from './types.js';

/**
 * RFC 6749 §4.1.3: exchanges an authorization code. The code must be live, issued to this client,
 * for this exact redirect URI, and pass PKCE (RFC 7636 §4.6) when a challenge was given. A second
 * use fails and revokes every token issued from the code (RFC 6749 §4.1.2).
 */
export const authorizationCode: Grant = {
  type: 'authorization_code',
  enabledBy: 'authorization_code',
  needs(form) {
    const code = required(form, 'code', invalidRequest);
    required(form, 'redirect_uri', invalidRequest);
    const verifier = form.get('code_verifier');
    if (verifier !== undefined && !isValidPkceValue(verifier)) {
      throw invalidRequest(
        'code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636 §4.1).',
      );
    }
    return { code: sha256(code) };
  },
  async handle({ db, form, client, read, issuer }) {
    const code = read.code;
    if (!code) throw invalidGrant('The authorization code is unknown or expired.');
    if (code.clientId !== client.clientId)
      throw invalidGrant('The authorization code was issued to another client.');
    if (code.redeemed) {
      await revokeGrant(db, code.grantId, code.issued);
      throw invalidGrant('The authorization code was already used; the tokens issued for it are revoked.');
    }
    if (!isLive(code)) throw invalidGrant('The authorization code is unknown or expired.');
    if (form.get('redirect_uri') !== code.redirectUri) {
      throw invalidGrant('redirect_uri differs from the one used at the authorization request.');
    }
    const verifier = form.get('code_verifier');
    if (code.codeChallenge) {
      if (!verifier)
        throw invalidGrant('code_verifier is required: the authorization request carried a challenge.');
      if (!verifyPkce(code.codeChallenge, verifier))
        throw invalidGrant('code_verifier does not match the challenge.');
    } else if (verifier !== undefined) {
      // RFC 9700 §2.1.1: a verifier without a challenge is a PKCE downgrade attempt.
      throw invalidGrant('code_verifier was sent but the authorization request carried no code_challenge.');
    }
    const minted = await issueTokens(
      { db, issuer },
      {
        client,
        userId: code.userId,
        scope: code.scope,
        grantId: code.grantId,
        withRefresh: client.grantTypes.includes('refresh_token'),
      },
    );
    // The user is read while the code is redeemed (no round trip more): a user deleted or
    // disabled since the code was issued gets no tokens. OpenID Connect (OIDC Core §3.1.3.3) also
    // needs the user's claims and the signing keys; a plain OAuth client reads no keys.
    const openid = isOpenIdScope(code.scope);
    const [outcome, user] = await Promise.all([
      redeemCode(db, code, minted.records),
      getUser(db, code.userId),
      openid ? keySet() : undefined,
    ]);
    if (outcome === 'reused') {
      // Lost the race to a concurrent redemption: the code is compromised, revoke what it issued.
      const now = await getCode(db, code.digest);
      await revokeGrant(db, code.grantId, now?.issued ?? []);
      throw invalidGrant('The authorization code was already used; the tokens issued for it are revoked.');
    }
    if (!user || user.enabled === false) {
      await revokeGrant(
        db,
        code.grantId,
        minted.records.map((r) => r.digest),
      );
      throw invalidGrant(user ? DISABLED : 'The user of this authorization code no longer exists.');
    }
    if (!openid) return minted;
    const idToken = await userIdToken({
      issuer,
      clientId: client.clientId,
      user,
      scope: code.scope,
      nonce: code.nonce,
      authTime: code.authTime,
      amr: code.amr,
      accessToken: minted.accessToken,
      lifetime: config().accessTokenTtl,
    });
    return { ...minted, idToken };
  },
};
