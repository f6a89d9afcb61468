// What the server's verification details say to the holder, in words.
import type { CertificateDto } from '../../../../../shared/schemas/dto';
import { MESSAGES } from '../../../../../shared/constants';

/** A pending certificate's retry notice from the server (chain unreachable, retrying or given up). */
export function retryNotice(c: Pick<CertificateDto, 'verification_details'>): { text: string; gaveUp: boolean } | null {
  const d = c.verification_details;
  const retry = d?.retry as { state?: string } | undefined;
  if (!retry || typeof d?.reason !== 'string') return null;
  return { text: d.reason, gaveUp: retry.state === 'gave_up' };
}

export function rejectionReason(c: Pick<CertificateDto, 'verification_details'>) {
  const reason = c.verification_details?.reason;
  return typeof reason === 'string' && reason.trim() ? reason : MESSAGES.rejectedFallback;
}
