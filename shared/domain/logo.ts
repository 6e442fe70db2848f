import sharp, { type Metadata } from 'sharp';
import { invalid } from '../errors.js';
import { type Application, setLogoKey } from '../store/applications.js';
import type { Db } from '../store/db.js';
import { deleteLogo, putLogo } from '../store/logos.js';

/** What an uploaded logo may be. The declared Content-Type is never trusted. */
export const MAX_LOGO_BYTES = 5 * 1024 * 1024;
/** Larger images are refused before decoding: a small file may declare a huge canvas (a "bomb"). */
export const MAX_LOGO_PIXELS = 4096 * 4096;
export const LOGO_SIZE = 256;
const FORMATS = ['png', 'jpeg', 'webp', 'gif'] as const;
type LogoFormat = (typeof FORMATS)[number];

export interface CropBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Recognises the four accepted formats by their magic bytes; SVG, text and the rest are refused. */
export function sniffFormat(bytes: Buffer): LogoFormat | undefined {
  const at = (offset: number, sig: number[]) => sig.every((b, i) => bytes[offset + i] === b);
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (at(0, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (
    bytes
      .subarray(0, 6)
      .toString('latin1')
      .match(/^GIF8[79]a$/)
  )
    return 'gif';
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp';
  return undefined;
}

/** Reads the crop box from query parameters x, y, width, height (all or none; integers, in image pixels). */
export function cropFromParams(params: Map<string, string>): CropBox | undefined {
  const names = ['x', 'y', 'width', 'height'] as const;
  const present = names.filter((n) => params.has(n));
  if (present.length === 0) return undefined;
  if (present.length !== names.length) {
    throw invalid('Give all of x, y, width and height for the crop, or none of them.', 'crop');
  }
  const out = {} as CropBox;
  for (const n of names) {
    const raw = params.get(n)!;
    if (!/^\d{1,6}$/.test(raw)) throw invalid(`${n} must be a whole number of pixels.`, 'crop');
    out[n] = Number(raw);
  }
  if (out.width < 1 || out.height < 1)
    throw invalid('The crop must be at least 1 pixel wide and high.', 'crop');
  return out;
}

/**
 * Checks an upload is a real PNG, JPEG, WebP or GIF of at most 5 MB and 4096×4096 pixels,
 * decodes it with sharp (failing on corrupt data), applies the crop and returns a 256×256 PNG.
 * sharp writes no metadata (EXIF, ICC, XMP) unless asked to, so none leaks from the upload.
 */
export async function processLogo(bytes: Buffer, crop: CropBox | undefined): Promise<Buffer> {
  if (bytes.length === 0) throw invalid('Send the image file as the request body.', 'logo');
  if (bytes.length > MAX_LOGO_BYTES) throw invalid('The image must be at most 5 MB.', 'logo');
  const sniffed = sniffFormat(bytes);
  if (!sniffed) {
    throw invalid('This file is not a PNG, JPEG, WebP or GIF image (SVG is not accepted).', 'logo');
  }
  const options = { limitInputPixels: MAX_LOGO_PIXELS, failOn: 'error' as const };
  let meta: Metadata;
  try {
    meta = await sharp(bytes, options).metadata();
  } catch {
    throw invalid('The image could not be read; it may be damaged.', 'logo');
  }
  if (meta.format !== sniffed) throw invalid('The image could not be read; it may be damaged.', 'logo');
  // The browser shows (and the cropper measures) the image turned upright by its EXIF orientation.
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  if (width < 1 || height < 1 || width * height > MAX_LOGO_PIXELS) {
    throw invalid('The image is too large: at most 4096×4096 pixels.', 'logo');
  }
  if (crop && (crop.x + crop.width > width || crop.y + crop.height > height)) {
    throw invalid(`The crop box lies outside the ${width}×${height} image.`, 'crop');
  }
  try {
    let image = sharp(bytes, { ...options, autoOrient: true });
    if (crop) image = image.extract({ left: crop.x, top: crop.y, width: crop.width, height: crop.height });
    return await image.resize(LOGO_SIZE, LOGO_SIZE, { fit: 'cover' }).png().toBuffer();
  } catch {
    throw invalid('The image could not be decoded; it may be damaged or too large.', 'logo');
  }
}

/**
 * Replaces an application's logo: the processed image is stored under a fresh key, the
 * application points at it, and only then is the old object dropped, so a reader never meets a
 * logo key without its image. Returns the new key.
 */
export async function replaceLogo(
  db: Db,
  app: Application,
  bytes: Buffer,
  crop: CropBox | undefined,
): Promise<string> {
  const png = await processLogo(bytes, crop);
  const key = await putLogo(app.id, png);
  await setLogoKey(db, app.id, key);
  if (app.logoKey) await deleteLogo(app.logoKey);
  return key;
}
