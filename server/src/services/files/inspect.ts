import { createHash } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';

export type UploadKind = 'certificate' | 'photo';
export type FileType = 'pdf' | 'png' | 'jpeg' | 'webp' | 'gif';
export type ImageType = Exclude<FileType, 'pdf'>;

export interface InspectedFile {
  type: FileType;
  mime: string;
  size: number;
}

export type FileRejectionCode = 'empty' | 'too_large' | 'unsupported_type' | 'corrupt' | 'too_many_pixels' | 'password_protected';

/** A file refused by its bytes. `message` is written for the person who uploaded it. */
export class FileRejectedError extends Error {
  readonly code: FileRejectionCode;
  constructor(code: FileRejectionCode, message: string) {
    super(message);
    this.name = 'FileRejectedError';
    this.code = code;
  }
}

const MB = 1024 * 1024;
export const MAX_CERTIFICATE_BYTES = 10 * MB;
export const MAX_PHOTO_BYTES = 2 * MB;
/** Refuses decompression bombs: a tiny file that claims a gigantic canvas. */
export const MAX_IMAGE_PIXELS = 40_000_000;

export const MIME_BY_TYPE: Record<FileType, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

const ACCEPTED: Record<UploadKind, readonly FileType[]> = {
  certificate: ['pdf', 'jpeg', 'png', 'webp'],
  photo: ['jpeg', 'png', 'gif', 'webp'],
};

const ACCEPTED_TEXT: Record<UploadKind, string> = {
  certificate: 'PDF, JPG, JPEG, PNG or WEBP',
  photo: 'JPG, PNG, GIF or WEBP',
};

/** Lowercase hex SHA-256 of the bytes. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function startsWith(bytes: Uint8Array, sig: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (bytes[offset + i] !== sig[i]) return false;
  return true;
}

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/**
 * Detects the type from magic bytes only. PDF readers accept a header anywhere in the first
 * 1024 bytes, so we do too (otherwise real files with a junk prefix would be refused).
 */
export function detectType(bytes: Uint8Array): FileType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).toString('latin1');
  if (head.includes('%PDF-')) return 'pdf';
  return null;
}

/** Names what a refused file really is, so the message is not just "unsupported". */
function describeUnknown(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'a ZIP archive or Office document';
  if (startsWith(bytes, ascii('MZ'))) return 'a Windows program';
  if (startsWith(bytes, [0x7f, 0x45, 0x4c, 0x46])) return 'a program';
  if (startsWith(bytes, ascii('II*\0')) || startsWith(bytes, ascii('MM\0*'))) return 'a TIFF image';
  if (startsWith(bytes, ascii('ftyp'), 4)) return 'a HEIC image or video';
  const head = Buffer.from(bytes.subarray(0, 256)).toString('utf8').trimStart().toLowerCase();
  if (head.startsWith('<svg') || head.startsWith('<?xml')) return 'an SVG or XML file';
  if (head.startsWith('<!doctype html') || head.startsWith('<html')) return 'a web page';
  return null;
}

function unsupported(kind: UploadKind, what: string | null): FileRejectedError {
  const subject = kind === 'photo' ? 'photo' : 'file';
  const prefix = what ? `This ${subject} is ${what}, which is not accepted.` : `This ${subject} type is not supported.`;
  return new FileRejectedError('unsupported_type', `${prefix} Please upload a ${ACCEPTED_TEXT[kind]} file.`);
}

function corrupt(type: FileType, detail: string): FileRejectedError {
  const label = type === 'pdf' ? 'PDF' : `${type.toUpperCase()} image`;
  return new FileRejectedError('corrupt', `This ${label} is damaged or incomplete (${detail}). Please export it again and re-upload.`);
}

/**
 * Checks an upload by its bytes: size, real type (magic bytes, never the name), and that it
 * parses completely. Throws FileRejectedError with a message fit to show the user.
 */
export async function inspectUpload(bytes: Uint8Array, opts: { kind: UploadKind }): Promise<InspectedFile> {
  const { kind } = opts;
  if (!bytes || bytes.length === 0) {
    throw new FileRejectedError('empty', kind === 'photo' ? 'The photo is empty. Please choose another image.' : 'The file is empty. Please choose another file.');
  }
  const max = kind === 'photo' ? MAX_PHOTO_BYTES : MAX_CERTIFICATE_BYTES;
  if (bytes.length > max) {
    throw new FileRejectedError(
      'too_large',
      kind === 'photo' ? 'Photo is too large. The maximum size is 2 MB.' : 'File is too large. The maximum size is 10 MB.',
    );
  }
  const type = detectType(bytes);
  if (!type) throw unsupported(kind, describeUnknown(bytes));
  if (!ACCEPTED[kind].includes(type)) {
    throw unsupported(kind, type === 'pdf' ? 'a PDF' : `a ${type.toUpperCase()} image`);
  }
  if (type === 'pdf') await checkPdf(bytes);
  else await checkImage(bytes, type);
  return { type, mime: MIME_BY_TYPE[type], size: bytes.length };
}

async function checkPdf(bytes: Uint8Array): Promise<void> {
  // pdf-lib recovers objects from damaged files, so it alone would accept a truncated PDF:
  // a complete file ends with the %%EOF marker (allowing trailing whitespace/junk).
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset + Math.max(0, bytes.length - 1024), Math.min(bytes.length, 1024)).toString('latin1');
  if (!tail.includes('%%EOF')) throw corrupt('pdf', 'the end of the file is missing');
  let pages: number;
  let encrypted: boolean;
  try {
    const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
    pages = doc.getPageCount();
    encrypted = doc.isEncrypted;
  } catch (err) {
    throw corrupt('pdf', 'it could not be read');
  }
  if (pages < 1) throw corrupt('pdf', 'it has no pages');
  // Many certificates are encrypted only to forbid editing (empty open password): those are fine.
  // One that needs a password to open cannot be read or verified, so say so now.
  if (encrypted && (await needsOpenPassword(bytes))) {
    throw new FileRejectedError('password_protected', 'This PDF is password-protected. Please upload a copy that opens without a password.');
  }
}

async function needsOpenPassword(bytes: Uint8Array): Promise<boolean> {
  const { getDocument, VerbosityLevel } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: VerbosityLevel.ERRORS });
  try {
    await task.promise;
    return false;
  } catch (err) {
    return (err as { name?: string })?.name === 'PasswordException';
  } finally {
    await task.destroy().catch(() => undefined);
  }
}

async function checkImage(bytes: Uint8Array, type: ImageType): Promise<void> {
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
  if (meta.format && normaliseFormat(meta.format) !== type) throw corrupt(type, 'its contents do not match its type');
  try {
    // Full decode (streamed through a small thumbnail, so memory stays bounded) catches truncation.
    await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', animated: false })
      .resize(32, 32, { fit: 'inside' })
      .raw()
      .toBuffer();
  } catch {
    throw corrupt(type, 'the image data is cut short or invalid');
  }
}

function normaliseFormat(format: string): string {
  return format === 'jpg' ? 'jpeg' : format;
}
