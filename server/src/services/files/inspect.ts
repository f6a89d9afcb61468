import { createHash } from 'node:crypto';
import { checkUploadedPdf } from './in-reader.js';
import { checkImage } from './inspect-image.js';
import { FileRejectedError, MAX_CERTIFICATE_BYTES, MAX_PHOTO_BYTES, MIME_BY_TYPE, type FileType, type InspectedFile, type UploadKind } from './rejection.js';

// An upload checked by its bytes: size, real type (magic bytes), then the PDF checks
// (./inspect-pdf.ts, in a document reader process: ./in-reader.ts) or the image checks (./inspect-image.ts).

export {
  FileRejectedError,
  MAX_CERTIFICATE_BYTES,
  MAX_IMAGE_PIXELS,
  MAX_PDF_PAGES,
  MAX_PHOTO_BYTES,
  MAX_PHOTO_PIXELS,
  MIME_BY_TYPE,
  type FileRejectionCode,
  type FileType,
  type ImageType,
  type CheckedPdf,
  type InspectedFile,
  type UploadKind,
} from './rejection.js';

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
  if (type === 'pdf') return { type, mime: MIME_BY_TYPE[type], size: bytes.length, pdf: await checkUploadedPdf(bytes) };
  await checkImage(bytes, type, kind);
  return { type, mime: MIME_BY_TYPE[type], size: bytes.length };
}
