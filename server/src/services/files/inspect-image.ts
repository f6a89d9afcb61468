import sharp from 'sharp';
import { corrupt, FileRejectedError, MAX_IMAGE_PIXELS, MAX_PHOTO_PIXELS, type ImageType, type UploadKind } from './rejection.js';

// The image checks of an upload: dimensions and animation frames read from the header before any
// pixel is decoded, within the pixel limits of certificates and photos.

export async function checkImage(bytes: Uint8Array, type: ImageType, kind: UploadKind): Promise<void> {
  let meta: sharp.Metadata;
  try {
    // metadata() reads only the header, so a bomb is caught before any pixel is decoded; the
    // limit is lifted here only so we can tell the user the real dimensions.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw corrupt(type, 'its header could not be read');
  }
  const { width, height } = meta;
  if (!width || !height) throw corrupt(type, 'it has no dimensions');
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new FileRejectedError(
      'too_many_pixels',
      `This image is too large (${width} × ${height} pixels). The maximum is 40 megapixels; please resize it and re-upload.`,
    );
  }
  if (kind === 'photo' && width * height > MAX_PHOTO_PIXELS) {
    throw new FileRejectedError(
      'too_many_pixels',
      `This photo is too large (${width} × ${height} pixels). The maximum is 4096 × 4096 pixels; please resize it and re-upload.`,
    );
  }
  // An animated GIF/WEBP is decoded frame by frame: the photo is re-encoded with every frame, so the
  // limit holds for all of them together (sharp's own limit would fail later, in its words, as a 500).
  // Read from the header too: `pages` frames of `height` pixels each (metadata reads the first frame).
  const frames = Math.max(1, meta.pages ?? 1);
  if (frames > 1 && width * height * frames > MAX_IMAGE_PIXELS) {
    const subject = kind === 'photo' ? 'animated photo' : 'animated image';
    const fix = kind === 'photo' ? 'please upload a still photo, or an animation with fewer or smaller frames' : 'please upload a still image or a PDF of the certificate';
    throw new FileRejectedError(
      'too_many_pixels',
      `This ${subject} has ${frames} frames of ${width} × ${height} pixels (${megapixels(width * height * frames)} megapixels in all). The maximum is 40 megapixels for all frames together; ${fix}.`,
    );
  }
  if (meta.format && normaliseFormat(meta.format) !== type) throw corrupt(type, 'its contents do not match its type');
  try {
    // Full decode (streamed through a small thumbnail, so memory stays bounded) catches truncation,
    // of every frame of an animated photo (all are kept), of the first frame of a certificate image
    // (the only one converted to PDF).
    await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', animated: kind === 'photo' && frames > 1 })
      .resize(32, 32, { fit: 'inside' })
      .raw()
      .toBuffer();
  } catch {
    throw corrupt(type, 'the image data is cut short or invalid');
  }
}

function megapixels(pixels: number): string {
  return String(Math.round(pixels / 100_000) / 10);
}

function normaliseFormat(format: string): string {
  return format === 'jpg' ? 'jpeg' : format;
}
