import { CERTIFICATE_FILE_EXTENSIONS, CERTIFICATE_MAX_BYTES } from '../../../../../shared/constants';

// The files a certificate may be (PDF, or an image converted to PDF on upload): holders' uploads and
// institutions' issues accept the same.
export const CERTIFICATE_FILE_ACCEPT = '.pdf,.jpg,.jpeg,.png,.webp,application/pdf,image/jpeg,image/png,image/webp';

export function extensionOf(name: string) {
  return name.split('.').pop()?.toLowerCase() ?? '';
}

/** Why `file` cannot be a certificate (its type or size), in the form's words; null when it can. */
export function certificateFileProblem(file: File): string | null {
  if (!(CERTIFICATE_FILE_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) return 'Unsupported file type. Use PDF, JPG, JPEG, PNG or WEBP.';
  if (file.size > CERTIFICATE_MAX_BYTES) return `The file is larger than ${CERTIFICATE_MAX_BYTES / 1024 / 1024} MB.`;
  return null;
}
