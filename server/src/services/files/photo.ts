import sharp from 'sharp';
import { MAX_IMAGE_PIXELS, type ImageType } from './inspect.js';
import { stripJpegMetadata } from './to-pdf.js';

/**
 * Removes camera metadata (GPS position, device serials, owner names) from a profile photo, which
 * others see when certificates are shared. Upright JPEGs are cleaned losslessly; other images are
 * re-encoded by sharp (which writes no metadata) with the EXIF rotation applied, so they still
 * display the right way up. Call after inspectUpload accepted the bytes.
 */
export async function sanitizePhoto(bytes: Uint8Array, type: ImageType): Promise<Uint8Array> {
  const meta = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS }).metadata();
  const upright = (meta.orientation ?? 1) <= 1;
  if (type === 'jpeg' && upright) return stripJpegMetadata(bytes);
  const img = sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, animated: type === 'gif' || type === 'webp' }).autoOrient();
  const out =
    type === 'png' ? img.png() : type === 'jpeg' ? img.jpeg({ quality: 90 }) : type === 'webp' ? img.webp({ quality: 90 }) : img.gif();
  return new Uint8Array(await out.toBuffer());
}
