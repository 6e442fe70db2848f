import { AppError } from '../errors.js';
import type { Db } from '../store/db.js';
import { hasSecondFactor, readTwoFactor } from '../store/two-factor.js';
import { type CodeMethod, verifySecondFactorCode } from './totp.js';

export const API_TOKEN_NEEDS_CODE =
  'Two-factor sign-in is on for this account: send "code" (the current code of your authenticator app, or a recovery code) with name and password';

/**
 * POST /v1/auth/tokens for an account with two-factor on. Keyrock 8 checks its TOTP only on its
 * web sign-in, so its API hands out tokens for a password alone; Gatehouse does not: the body
 * carries `code` (an authenticator-app code or a recovery code, through the brute-force guard),
 * or the answer is 401. A passkey cannot be used here (WebAuthn needs a browser). Returns the
 * method the code used, or nothing for an account without two-factor.
 */
export async function apiTokenSecondFactor(
  db: Db,
  userId: number,
  email: string,
  code: string | undefined,
): Promise<CodeMethod | undefined> {
  const record = await readTwoFactor(db, userId);
  if (!hasSecondFactor(record)) return undefined;
  if (code === undefined) throw new AppError('unauthorized', API_TOKEN_NEEDS_CODE, { code: 'code_required' });
  if (code.length > 64) throw new AppError('unauthorized', 'The code is not right', { code: 'invalid_code' });
  return verifySecondFactorCode(db, userId, email.trim().toLowerCase(), code.trim(), record);
}
