import QRCode from 'qrcode';
import { conflict } from '../errors.js';
import type { Db } from '../store/db.js';
import { putPending, readTwoFactor } from '../store/two-factor.js';
import { nowSeconds } from '../time.js';
import { newTotpSecret, sealSecret, totpFor } from './totp.js';
import { reauthenticate } from './two-factor.js';

/** An enrolment must be confirmed within 10 minutes (time to install an app and scan). */
const ENROLMENT_SECONDS = 10 * 60;

export interface TotpEnrolment {
  /** Base32, for typing into an app that cannot scan. */
  secret: string;
  /** The `otpauth://totp/…` URI the QR code holds. */
  uri: string;
  /** The QR code as an SVG data URL (the portal's CSP allows `img-src data:`). */
  qrCode: string;
}

/**
 * Starts adding an authenticator app (after the password): a new secret, kept encrypted as
 * pending until a code from the app confirms it. Shown once here; never returned again.
 */
export async function startTotp(db: Db, userId: number, password: unknown): Promise<TotpEnrolment> {
  const email = await reauthenticate(db, userId, password);
  const record = await readTwoFactor(db, userId);
  if (record.totp)
    throw conflict('An authenticator app is already set up; remove it first to set up another.');
  const secret = newTotpSecret();
  await putPending(
    db,
    userId,
    'TOTP#PENDING',
    { secret: await sealSecret(userId, secret) },
    nowSeconds() + ENROLMENT_SECONDS,
  );
  const uri = totpFor(secret, email).toString();
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, uri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}
