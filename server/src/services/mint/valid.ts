import type { VerdictDto } from '../../../../shared/schemas/dto';
import type { CertificateRow } from '../../db/schema';
import { chainPartOf, computeVerdict } from '../certificates/verdict';
import type { Services } from '../index';

/**
 * The public verdict of `cert` by id (what its share link shows), computed now from the chain and the
 * database — not from the verdict caches: a mint is permanent, and an institution's domain proof can
 * lapse without the chain changing.
 */
export async function publicVerdictNow(svc: Pick<Services, 'db' | 'chain'>, cert: CertificateRow, origin: string): Promise<VerdictDto> {
  const src = { db: svc.db, chainPart: (sha256: string, stored?: string | null) => chainPartOf(svc, sha256, stored) };
  return (await computeVerdict(src, { sha256: cert.sha256, cert, origin })).verdict;
}
