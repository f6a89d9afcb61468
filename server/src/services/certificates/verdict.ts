import { CertificateStatus, TrustTier, fromHex, isExpired, type CertificateAccount } from '../../../../shared/program/codec';
import { certificateStatusName, issuerStatusName, trustTierName } from '../../../../shared/program/names';
import { ReasonCode, reasonName } from '../../../../shared/program/reasons';
import type { VerdictDto, VerdictStatus } from '../../../../shared/schemas/dto';
import type { CertificateRow } from '../../db/schema';
import type { Services } from '../index';
import { findWithHolder } from '../../db/certificates';
import { toPublicCertificateDto } from './dto';

const iso = (secs: bigint) => (secs === 0n ? null : new Date(Number(secs) * 1000).toISOString());

type ChainPart = Omit<VerdictDto, 'valid' | 'integrity' | 'expected_sha256' | 'actual_sha256' | 'certificate' | 'checked_at'>;

// What the chain says about a hash (plus the signatures we sent for it) is cached per hash and
// reused while the chain's state version is unchanged, for at most 1 s (expiry, RPC chains). Whole
// verdicts are cached the same way: a holder's renamed profile shows up within a second; anything
// that changes status also changes the chain.
const CACHE_TTL_MS = 1000;
const CACHE_MAX = 10_000;

type CacheEntry = { at: number; version: number | null; verdict: VerdictDto; json?: string };
type VerdictQuery = { sha256: string; cert?: CertificateRow | null; fileSha256?: string; origin: string };

/** The verdict anyone gets for a hash; one per server (compose.ts), its caches with it. */
export class VerdictService {
  private readonly parts = new Map<string, { at: number; version: number | null; part: ChainPart }>();
  private readonly verdicts = new Map<string, CacheEntry>();

  constructor(private readonly svc: Pick<Services, 'db' | 'chain'>) {}

  /**
   * The verdict anyone gets, derived from the chain record (the DB adds the human-readable
   * certificate fields and the signatures we sent). `fileSha256` is the hash of a dropped file.
   */
  async verdictFor(p: VerdictQuery): Promise<VerdictDto> {
    const entry = await this.cached(p);
    return { ...entry.verdict, checked_at: new Date().toISOString() };
  }

  /** The same verdict as JSON text; serialised once per cache entry (the REST hot path). */
  async verdictJson(p: { sha256: string; origin: string }): Promise<string> {
    const entry = await this.cached(p);
    entry.json ??= JSON.stringify({ ...entry.verdict, checked_at: undefined });
    return `${entry.json.slice(0, -1)},"checked_at":"${new Date().toISOString()}"}`;
  }

  private async cached(p: VerdictQuery): Promise<CacheEntry> {
    const key = `${p.sha256}|${p.cert?.id ?? ''}|${p.fileSha256 ?? ''}|${p.origin}`;
    const version = this.svc.chain.stateVersion();
    const hit = this.verdicts.get(key);
    if (hit && hit.version === version && Date.now() - hit.at < CACHE_TTL_MS) return hit;
    const entry: CacheEntry = { at: Date.now(), version, verdict: await this.compute(p) };
    if (this.verdicts.size > CACHE_MAX) this.verdicts.clear();
    this.verdicts.set(key, entry);
    return entry;
  }

  private async chainPart(sha256: string, certId: string | null): Promise<ChainPart> {
    const key = `${sha256}:${certId ?? ''}`;
    const version = this.svc.chain.stateVersion();
    const hit = this.parts.get(key);
    if (hit && hit.version === version && Date.now() - hit.at < CACHE_TTL_MS) return hit.part;
    const part = await chainPartOf(this.svc, sha256, certId);
    if (this.parts.size > CACHE_MAX) this.parts.clear();
    this.parts.set(key, { at: Date.now(), version, part });
    return part;
  }

  private async compute(p: VerdictQuery): Promise<VerdictDto> {
    const row = await findWithHolder(this.svc.db, p.cert ? { id: p.cert.id } : { sha256: p.sha256 });
    const part = await this.chainPart(p.sha256, row?.id ?? null);
    const mismatch = p.fileSha256 !== undefined && p.fileSha256 !== p.sha256;
    const found = part.status !== 'not_found';
    // The record now names another holder: an institution issued this file to its rightful holder, so
    // this certificate's claim is over, whatever the record says about the new holder's.
    const superseded = !!row && !!part.holder_wallet && part.holder_wallet !== row.holder_wallet;
    return {
      valid: part.status === 'verified' && !mismatch && !superseded,
      integrity: p.fileSha256 === undefined ? 'not_checked' : mismatch ? 'mismatch' : found ? 'match' : 'not_checked',
      ...(mismatch ? { expected_sha256: p.sha256, actual_sha256: p.fileSha256 } : {}),
      ...part,
      ...(superseded ? { status: 'superseded' as const, tier: 'none' as const, reason_code: ReasonCode.RevokedSuperseded, reason: reasonName(ReasonCode.RevokedSuperseded) } : {}),
      certificate: row ? toPublicCertificateDto(row, row, p.origin) : null,
      checked_at: new Date().toISOString(),
    };
  }
}

/** What the chain says about `sha256` (and the signatures we sent for certificate `certId`). */
async function chainPartOf(svc: Pick<Services, 'db' | 'chain'>, sha256: string, certId: string | null): Promise<ChainPart> {
  const { chain, db } = svc;
  const hash = fromHex(sha256);
  const record: CertificateAccount | null = await chain.readCertificate(hash);
  const now = await chain.now();
  let status: VerdictStatus = 'not_found';
  if (record) status = record.status !== CertificateStatus.Revoked && isExpired(record, now) ? 'expired' : certificateStatusName(record.status) ?? 'pending';
  // The record's `issuer` is the institution that issued or confirmed it only at the issuer-confirmed
  // tier; below it, the one the holder asked to confirm it: never shown as the issuer.
  let issuer: VerdictDto['issuer'] = null;
  let requested: VerdictDto['confirmation_requested_from'] = null;
  if (record?.issuer) {
    const acc = await chain.readIssuer(record.issuer);
    const named = { authority: record.issuer.toBase58(), name: acc?.name ?? null, uri: acc?.uri ?? null, status: acc ? issuerStatusName(acc.status) ?? null : null };
    if (record.tier === TrustTier.IssuerConfirmed) issuer = named;
    else requested = named;
  }
  const transactions = certId
    ? (await db.selectFrom('chain_transaction').select(['kind', 'signature', 'slot', 'created_at']).where('certificate_id', '=', certId).orderBy('slot').execute()).map((t) => ({
        kind: t.kind,
        signature: t.signature,
        slot: t.slot,
        created_at: t.created_at,
      }))
    : [];
  return {
    status,
    sha256,
    record_address: record || certId ? chain.certificateAddress(hash).toBase58() : null,
    tier: record ? trustTierName(record.tier) ?? 'none' : 'none',
    reason_code: record?.reasonCode ?? 0,
    reason: record && record.reasonCode ? reasonName(record.reasonCode) : null,
    issuer,
    confirmation_requested_from: requested,
    holder_wallet: record?.holder.toBase58() ?? null,
    verifier: record?.verifier?.toBase58() ?? null,
    nft_mint: record?.nftMint?.toBase58() ?? null,
    anchored_at: record ? iso(record.anchoredAt) : null,
    verified_at: record ? iso(record.verifiedAt) : null,
    revoked_at: record ? iso(record.revokedAt) : null,
    expires_at: record ? iso(record.expiresAt) : null,
    transactions,
    chain: { mode: chain.mode, program_id: chain.programId.toBase58() },
  };
}
