import {
  type AuthenticationResponseJSON,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { invalid, notFound } from '../errors.js';
import type { Db } from '../store/db.js';
import {
  addPasskey,
  putPending,
  readTwoFactor,
  removePasskey,
  type StoredPasskey,
} from '../store/two-factor.js';
import { requireUser } from '../store/users.js';
import { nowSeconds } from '../time.js';
import { newRecoveryCodes, reauthenticate, type TwoFactorView, twoFactorView } from './two-factor.js';
import { text } from './validate.js';

/**
 * Passkeys (WebAuthn Level 3) with @simplewebauthn/server: registration from account settings,
 * and the check of an assertion at sign-in, as a second factor or on its own. Attestation is not
 * asked for (`none`): Gatehouse trusts the person who holds the account, not a device maker.
 * Credentials are discoverable (resident), so a passkey can sign in without an email; the user
 * handle is the user id, which names whose passkey to read.
 */
export interface RelyingParty {
  id: string;
  origin: string;
}

const REGISTRATION_SECONDS = 5 * 60;

export const userHandleOf = (userId: number) => new TextEncoder().encode(String(userId));

/** The user id a passkey's user handle (base64url) names, if it is one of ours. */
export function userIdOfHandle(handle: string | undefined): number | undefined {
  if (!handle || handle.length > 64) return undefined;
  const value = Buffer.from(handle, 'base64url').toString('utf8');
  return /^[1-9]\d{0,15}$/.test(value) ? Number(value) : undefined;
}

/** Starts adding a passkey (after the password): the options for navigator.credentials.create(). */
export async function passkeyRegistrationOptions(
  db: Db,
  userId: number,
  password: unknown,
  rp: RelyingParty,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  await reauthenticate(db, userId, password);
  const [user, record] = await Promise.all([requireUser(db, userId), readTwoFactor(db, userId)]);
  const options = await generateRegistrationOptions({
    rpName: 'Gatehouse',
    rpID: rp.id,
    userName: user.email,
    userID: userHandleOf(userId),
    userDisplayName: user.displayName,
    attestationType: 'none',
    excludeCredentials: record.passkeys.map((p) => ({ id: p.id, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    timeout: REGISTRATION_SECONDS * 1000,
  });
  await putPending(
    db,
    userId,
    'PASSKEY#PENDING',
    { challenge: options.challenge },
    nowSeconds() + REGISTRATION_SECONDS,
  );
  return options;
}

function credentialJson<T>(value: unknown, field: string): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid('The passkey answer is missing; try again.', field);
  }
  const id = (value as { id?: unknown }).id;
  if (typeof id !== 'string' || id.length < 16 || id.length > 1364 || !/^[A-Za-z0-9_-]+$/.test(id)) {
    throw invalid('The passkey answer is malformed.', field);
  }
  return value as T;
}

/**
 * Finishes adding a passkey with the browser's answer. The first second factor also brings ten
 * recovery codes, returned once.
 */
export async function finishPasskeyRegistration(
  db: Db,
  userId: number,
  input: { credential: unknown; name: unknown },
  rp: RelyingParty,
): Promise<{ twoFactor: TwoFactorView; recoveryCodes: string[] | null }> {
  const response = credentialJson<RegistrationResponseJSON>(input.credential, 'credential');
  const name =
    input.name === undefined || input.name === '' ? 'Passkey' : text(input.name, 'name', { max: 64 });
  const record = await readTwoFactor(db, userId);
  if (!record.pendingPasskey) throw invalid('Start again: adding the passkey took too long.', 'credential');
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: record.pendingPasskey.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch (error) {
    throw invalid(`The passkey could not be checked: ${(error as Error).message}`, 'credential');
  }
  if (!verified.verified) throw invalid('The passkey could not be checked.', 'credential');
  const { credential } = verified.registrationInfo;
  const passkey: StoredPasskey = {
    id: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports ?? [],
    name,
    createdAt: nowSeconds(),
  };
  const recovery = record.recovery.length === 0 ? newRecoveryCodes() : undefined;
  if (!(await addPasskey(db, userId, record.pendingPasskey.challenge, passkey, recovery?.digests))) {
    throw invalid('Start again: this passkey was added already, or adding it took too long.', 'credential');
  }
  return {
    twoFactor: twoFactorView(await readTwoFactor(db, userId)),
    recoveryCodes: recovery?.codes ?? null,
  };
}

/** Removes a passkey (after the password). With no app and no passkey left, two-factor is off. */
export async function removePasskeyOf(db: Db, userId: number, id: string, password: unknown): Promise<void> {
  await reauthenticate(db, userId, password);
  const record = await readTwoFactor(db, userId);
  const others = record.passkeys.filter((p) => p.id !== id).length;
  const last = !record.totp && others === 0;
  if (!(await removePasskey(db, userId, id, last))) throw notFound('This passkey does not exist.');
}

/**
 * Checks a sign-in assertion against a stored passkey and the challenge the server issued;
 * returns the authenticator's new signature counter, or undefined when it does not verify.
 * `requireUserVerification` for a sign-in with the passkey alone: then the passkey is two
 * factors by itself (the device, and the PIN or biometric that unlocked it).
 */
export async function checkAssertion(
  response: AuthenticationResponseJSON,
  challenge: string,
  passkey: StoredPasskey,
  rp: RelyingParty,
  requireUserVerification: boolean,
): Promise<number | undefined> {
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification,
      credential: {
        id: passkey.id,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: passkey.transports as never,
      },
    });
    return result.verified ? result.authenticationInfo.newCounter : undefined;
  } catch {
    return undefined;
  }
}

export const assertionJson = (value: unknown, field = 'credential') =>
  credentialJson<AuthenticationResponseJSON>(value, field);
