import { errors, type JWTPayload, jwtVerify } from 'jose';

/**
 * An HS256 signature and `exp` checked with an application's jwt secret (Keyrock's `jwt` token
 * type, keyrock-jwt.ts); undefined when they do not hold. A module of its own, imported on first
 * use with named imports, so the bundle keeps only the parts of jose it calls.
 */
export async function verifiedHs256(value: string, secret: string): Promise<JWTPayload | undefined> {
  try {
    const { payload } = await jwtVerify(value, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
      requiredClaims: ['exp'],
    });
    return payload;
  } catch (error) {
    if (error instanceof errors.JOSEError) return undefined;
    throw error;
  }
}
