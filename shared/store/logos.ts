import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { config } from '../config.js';
import { randomToken } from '../crypto.js';
import { s3 } from './s3.js';

/**
 * Application logos in the logo bucket, under `logos/<appId>-<random>.png`. CloudFront (and the
 * local server) serve `/logos/<name>` from the key `logos/<name>`. Each upload gets a fresh key,
 * so a cached old logo is never served for a new one and objects can be cached as immutable.
 */
export async function putLogo(appId: number, png: Buffer): Promise<string> {
  const key = `logos/${appId}-${randomToken(9)}.png`;
  const bucket = config().logoBucket;
  await s3().send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: key,
      Body: png,
      ContentType: 'image/png',
      CacheControl: 'public, max-age=31536000, immutable',
    }),
  );
  return key;
}

/** Drops a replaced logo; best effort, as an orphan object harms nobody. */
export async function deleteLogo(key: string): Promise<void> {
  if (!key.startsWith('logos/')) return;
  await s3()
    .send(new DeleteObjectCommand({ Bucket: config().logoBucket, Key: key }))
    .catch(() => undefined);
}
