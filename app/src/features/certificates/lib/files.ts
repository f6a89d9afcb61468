// The files a certificate may be (PDF, or an image converted to PDF on upload): holders' uploads and
// institutions' issues accept the same.
export const CERTIFICATE_FILE_ACCEPT = '.pdf,.jpg,.jpeg,.png,.webp,application/pdf,image/jpeg,image/png,image/webp';

export function extensionOf(name: string) {
  return name.split('.').pop()?.toLowerCase() ?? '';
}
