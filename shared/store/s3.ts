import { S3Client } from '@aws-sdk/client-s3';
import { config } from '../config.js';

let cached: S3Client | undefined;

/**
 * The process-wide S3 client. Against s3rver (local runs) it needs path-style URLs and no
 * streaming checksums: s3rver stores aws-chunked uploads corrupted otherwise.
 */
export function s3(): S3Client {
  if (!cached) {
    const c = config();
    cached = new S3Client({
      region: c.region,
      ...(c.s3Endpoint
        ? {
            endpoint: c.s3Endpoint,
            forcePathStyle: true,
            credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
          }
        : {}),
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }
  return cached;
}
