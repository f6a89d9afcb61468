import { CertificateStatus, TrustTier, fromHex, isExpired, type CertificateAccount } from '../../../../shared/program/codec';
import { certificateStatusName, issuerStatusName, trustTierName } from '../../../../shared/program/names';
import { ReasonCode, reasonName, reasonText } from '../../../../shared/program/reasons';
import type { VerdictDto, VerdictInstitution, VerdictStatus } from '../../../../shared/schemas/dto';
import { parseVerificationDetails, claimsWereChecked } from '../../../../shared/schemas/details';
import type { CertificateRow } from '../../db/schema';
import type { Services } from '../index';
import type { ChainRecords } from '../chain/types';
import { findVerifiedByOriginal, findWithHolder, type CertificateWithHolder } from '../../db/certificates';
import { toPublicCertificateDto } from './dto';

const iso = (secs: bigint) => (secs === 0n ? null : new Date(Number(secs) * 1000).toISOString());

type ChainPart = Omit<VerdictDto, 'valid' | 'note' | 'flags' | 'original_sha256' | 'integrity' | 'expected_sha256' | 'actual_sha256' | 'certificate' | 'checked_at'>;

// What the chain says about a hash is cached per hash and
// reused while the chain's state version is unchanged, for at most 1 s (expiry, RPC chains). Whole
// verdicts are cached the same way: a holder's renamed profile shows up within a second; anything
// that changes status also changes the chain.
/** How long this process keeps a verdict by hash (the scale bench's cold verifies must come back later than this). */
export const CACHE_TTL_MS = 1000;
const CACHE_MAX = 10_000;

// One of `verdict` and `json` at least (a stored verdict arrives as JSON; the other is made when asked).
type CacheEntry = { at: number; version: number | null; verdict?: VerdictDto; json?: string };
type VerdictQuery = { sha256: string; cert?: CertificateRow | null; fileSha256?: string; origin: string };

/** Where a verdict is read from: the database, and what the chain says about a hash. */
export interface VerdictSources {
  db: Services['db'];
  chainPart(sha256: string, storedAddress?: string | null): Promise<ChainPart>;
}

/** What a verdict by hash was made of (the stored verdict's dependencies: verdict-store.ts). */
export interface VerdictInputs {
  certId: string | null;
  userId: string | null;
  /** The record's address, found or where it would be. */
  recordAddress: string | null;
  /** The institution the record names (issuer or asked to confirm). */
  issuerAuthority: string | null;
  /** Unix seconds after which the record counts as expired (null: no expiry ahead). */
  expiresAt: number | null;
}

/** A stored verdict by hash (verdict-store.ts): its JSON for a request's origin, or null. */
export interface StoredVerdicts {
  read(sha256: string, origin: string): Promise<string | null>;
}

const RECENT_SLOTS = 1 << 14;

/**
 * Which hashes were asked within the last `windowMs`, in a fixed table of 16,384 slots (192 kB,
 * allocated once: nothing a request makes is kept): a slot per hash by 14 of its bits 32–47, holding
 * its first 32 bits and when it was asked. Two hashes on one slot evict each other, so a hash asked again
 * may be taken for a first ask (one more read), and one that shares the slot and the first 32 bits for a
 * second (cached early): either only moves a cost. The admission filter of TinyLFU ("doorkeeper").
 */
export class RecentlyAsked {
  private readonly fingerprints = new Int32Array(RECENT_SLOTS);
  private readonly askedAt = new Float64Array(RECENT_SLOTS);

  constructor(private readonly windowMs: number) {}

  /** Whether `sha256` (hex) was asked within the window before `now`; records this ask. */
  askedAgain(sha256: string, now: number): boolean {
    const fingerprint = parseInt(sha256.slice(0, 8), 16) | 0;
    const slot = parseInt(sha256.slice(8, 12), 16) & (RECENT_SLOTS - 1);
    const again = this.askedAt[slot] > 0 && this.fingerprints[slot] === fingerprint && now - this.askedAt[slot] < this.windowMs;
    this.fingerprints[slot] = fingerprint;
    this.askedAt[slot] = now;
    return again;
  }
}

/** The verdict anyone gets for a hash; one per server (compose.ts), its caches with it. */
export class VerdictService {
  private readonly parts = new Map<string, { at: number; version: number | null; part: ChainPart }>();
  private readonly verdicts = new Map<string, CacheEntry>();
  /** Verdicts (stored or computed) and chain parts are kept only for a hash asked again (see fromStore). */
  private readonly recentlyAsked = new RecentlyAsked(CACHE_TTL_MS);
  private readonly partsAsked = new RecentlyAsked(CACHE_TTL_MS);
  private readonly live: VerdictSources;
  /** Verdicts by hash kept in the database (embedded chain): a cold verify in one read. */
  stored: StoredVerdicts | null = null;

  constructor(private readonly svc: Pick<Services, 'db' | 'chain'>) {
    this.live = { db: svc.db, chainPart: (sha256, storedAddress) => this.chainPart(sha256, storedAddress) };
  }

  /**
   * The verdict anyone gets, derived from the chain record (the DB adds the human-readable
   * certificate fields and the signatures we sent). `fileSha256` is the hash of a dropped file.
   */
  async verdictFor(p: VerdictQuery): Promise<VerdictDto> {
    const entry = await this.cached(p);
    entry.verdict ??= JSON.parse(entry.json!) as VerdictDto;
    return { ...entry.verdict, checked_at: new Date().toISOString() };
  }

  /**
   * The same verdict as JSON text (the REST hot path): from this process's cache, else the stored
   * verdict (one read), else computed (and serialised once per cache entry).
   */
  async verdictJson(p: { sha256: string; origin: string }): Promise<string> {
    const hit = this.cacheHit(p);
    const json = hit ? (hit.json ??= verdictText(hit.verdict!)) : ((await this.fromStore(p)) ?? (await this.liveJson(p)));
    return `${json.slice(0, -1)},"checked_at":"${new Date().toISOString()}"}`;
  }

  /**
   * The stored verdict; kept in this process's cache only for a hash asked again within the cache's
   * lifetime (`recentlyAsked`). A verdict asked once and cached anyway outlives a few young-generation
   * collections, so V8 moves it to the old generation: under cold verifies (every request another
   * hash) each young-generation collection promoted ~0.7 MB of them and took twice as long (2.6 against
   * 1.35 ms here), and the old generation filled to a full collection every few seconds (#15).
   */
  private async fromStore(p: { sha256: string; origin: string }): Promise<string | null> {
    if (!this.stored) return null;
    const version = this.svc.chain.stateVersion();
    const json = await this.stored.read(p.sha256, p.origin);
    const now = Date.now();
    if (json && this.recentlyAsked.askedAgain(p.sha256, now)) this.remember(this.cacheKey(p), { at: now, version, json });
    return json;
  }

  private remember(key: string, entry: CacheEntry) {
    if (this.verdicts.size > CACHE_MAX) this.verdicts.clear();
    this.verdicts.set(key, entry);
  }

  /** The verdict JSON computed now (without checked_at), as verdictJson gives it when nothing is stored. */
  private async liveJson(p: { sha256: string; origin: string }): Promise<string> {
    const entry = await this.cached(p);
    return (entry.json ??= verdictText(entry.verdict!));
  }

  private cacheKey = (p: VerdictQuery) => `${p.sha256}|${p.cert?.id ?? ''}|${p.fileSha256 ?? ''}|${p.origin}`;

  private cacheHit(p: VerdictQuery): CacheEntry | undefined {
    const hit = this.verdicts.get(this.cacheKey(p));
    return hit && hit.version === this.svc.chain.stateVersion() && Date.now() - hit.at < CACHE_TTL_MS ? hit : undefined;
  }

  private async cached(p: VerdictQuery): Promise<CacheEntry> {
    const hit = this.cacheHit(p);
    if (hit) return hit;
    const key = this.cacheKey(p);
    const version = this.svc.chain.stateVersion();
    const entry: CacheEntry = { at: Date.now(), version, verdict: (await computeVerdict(this.live, p)).verdict };
    // A hash nobody anchored, asked once (a flood of made-up hashes), is computed and not kept.
    if (this.recentlyAsked.askedAgain(p.sha256, entry.at)) this.remember(key, entry);
    return entry;
  }

  /**
   * An input no chain transaction changes (an institution's domain proof) changed: nothing cached
   * survives it. (Chain changes need no call: the entries are keyed by the chain's state version.)
   */
  forget() {
    this.verdicts.clear();
    this.parts.clear();
  }

  /** `storedAddress`: a certificate row's record_address for this hash (spares deriving it; checked). */
  private async chainPart(sha256: string, storedAddress?: string | null): Promise<ChainPart> {
    const version = this.svc.chain.stateVersion();
    const hit = this.parts.get(sha256);
    if (hit && hit.version === version && Date.now() - hit.at < CACHE_TTL_MS) return hit.part;
    const part = await chainPartOf(this.svc, sha256, storedAddress);
    const at = Date.now();
    if (!this.partsAsked.askedAgain(sha256, at)) return part;
    if (this.parts.size > CACHE_MAX) this.parts.clear();
    this.parts.set(sha256, { at, version, part });
    return part;
  }

}

/** `reason_text` of a certificate whose record now names another holder (its own claim is over). */
const SUPERSEDED_TEXT = 'an institution issued this file to another wallet; this earlier claim was never confirmed by the institution and no longer counts';

/** A day as the verdict's words give it ("November 26, 2026"), in UTC: the chain's times are UTC. */
export const dayOf = (isoTime: string) => new Date(isoTime).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** The note of a record past its expiry (also the holder's lists', standing.ts). */
export const expiredNote = (expiresAt: string | null) => (expiresAt ? `Expired on ${dayOf(expiresAt)}.` : 'Expired.');

/** `reason_text` of an expired record: the reason in words, with its date. */
const expiredText = (expiresAt: string | null) => (expiresAt ? `expired on ${dayOf(expiresAt)}` : 'expired');

/**
 * The note of a pending record whose content nobody could read (its row awaits the institution's
 * confirmation): said in the platform's words, with no field of the row (a pending certificate is not public).
 */
const AWAITING_NOTE = 'Not verified: its content could not be read automatically, so it waits for the institution to confirm it on chain with its own key.';

/** Whether two institution names are the same name (case, spacing and punctuation aside). */
export function sameInstitution(a: string, b: string): boolean {
  const norm = (s: string) => s.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  return norm(a) === norm(b);
}

/** What the platform's check flagged, said after its note ("Checked by Attesta only…"). */
export const flagsText = (flags: readonly string[]) =>
  flags.length ? `Its check flagged what follows, which does not make it invalid on its own (the text names the claims): ${flags.join(' ')}` : '';

/** The verdict's JSON text as stored and cached: without checked_at (added when it is sent). */
export const verdictText = (v: VerdictDto) => JSON.stringify({ ...v, checked_at: undefined });

/**
 * Whether a record counts, and the note that says why not or whose check it is: computeVerdict's rules,
 * also applied by the holder's lists to rows already loaded (standing.ts). `verified`: the record is
 * verified on chain and still this certificate's; `confirmer`: the institution whose own key confirmed
 * it (issuer-confirmed tier); `claimsChecked`: the claims shown were checked (by the platform's content
 * check, or confirmed by the institution through the product's flow; a confirmation made on chain only
 * covers the file); `claimedInstitution`: the institution the certificate names — whom a platform-only
 * check is not confirmed by, and whose word a confirmation by another institution is not (not valid).
 */
export function judgeRecord(p: {
  verified: boolean;
  tier: string;
  confirmer: VerdictInstitution | null;
  claimsChecked: boolean;
  claimedInstitution: string | null;
  /** What the platform's check flagged (platform_verified tier): said in the note, never a rejection by itself. */
  flags?: readonly string[];
}): { valid: boolean; note: string | null } {
  // An institution's confirmation counts while the operator keeps it approved.
  const confirmerNotApproved = p.verified && p.tier === 'issuer_confirmed' && p.confirmer?.status !== 'approved';
  const claimsUnchecked = p.verified && !p.claimsChecked;
  const institution = p.confirmer?.name ?? 'The institution';
  // An institution's key speaks for that institution only: a confirmation by another one than the
  // certificate names (sent on chain, outside the product's flow, which refuses it) is not the named
  // institution's word — said before anything else about its claims.
  const otherInstitution =
    p.verified && p.tier === 'issuer_confirmed' && !!p.confirmer?.name && !!p.claimedInstitution && !sameInstitution(p.confirmer.name, p.claimedInstitution);
  const note = confirmerNotApproved
    ? `${institution}'s registration is ${p.confirmer?.status === 'suspended' ? 'suspended' : 'not approved'}.`
    : otherInstitution
      ? `${institution} confirmed this file on chain with its own key, but the certificate names ${p.claimedInstitution}, which has not confirmed it: a confirmation by ${institution} is not ${p.claimedInstitution}'s word.`
      : claimsUnchecked && p.tier === 'issuer_confirmed'
        ? `${institution} confirmed this file on chain; the title and program shown were entered by the holder and were not confirmed.`
        : p.verified && p.confirmer && !p.confirmer.domain_proven
          ? `${institution}'s own key signed the record, but its domain${p.confirmer.domain ? ` ${p.confirmer.domain}` : ''} is not proven at present.`
          : p.verified && !claimsUnchecked && p.tier === 'platform_verified'
            ? // The platform's check is never to be read as the institution's word: say whose it is, whose it is not, and what it flagged.
              `Checked by Attesta only, not confirmed by ${p.claimedInstitution || 'the institution'}.${p.flags?.length ? ` ${flagsText(p.flags)}` : ''}`
            : null;
  return { valid: p.verified && !confirmerNotApproved && !claimsUnchecked && !otherInstitution, note };
}

/** What the platform's document check flagged, from a row's verification details (its verdict). */
export function platformFlags(details: ReturnType<typeof parseVerificationDetails>): string[] {
  if (details?.kind !== 'verdict' || !Array.isArray(details.tamper_signals)) return [];
  return details.tamper_signals.filter((f): f is string => typeof f === 'string' && f.trim() !== '');
}

/**
 * By id (a share link's certificate, verifyById, a file compared with a given certificate): that row,
 * whatever its state. By hash (verifyByHash, GET /api/v1/verify/hash, a dropped file): only the live
 * row of the wallet the record names as its holder — never an earlier claimant's superseded row — and
 * only while it is verified: the fields of a certificate nobody verified are its holder's, not public.
 * With the verdict, what it was read from (a verdict by hash is stored with these: verdict-store.ts).
 */
export async function computeVerdict(src: VerdictSources, p: VerdictQuery): Promise<{ verdict: VerdictDto; inputs: VerdictInputs }> {
  // The row is read first: its stored record address spares deriving the record's (chainPartOf).
  let row: CertificateWithHolder | undefined;
  let live: CertificateWithHolder | undefined;
  /** The certificate whose transactions the verdict lists. */
  let txsOf: CertificateWithHolder | undefined;
  let chain: ChainPart;
  if (p.cert) {
    row = live = txsOf = await findWithHolder(src.db, { id: p.cert.id });
    chain = await src.chainPart(p.sha256, row?.record_address);
  } else {
    live = await findWithHolder(src.db, { sha256: p.sha256 });
    chain = await src.chainPart(p.sha256, live?.record_address);
    // No record and no certificate of this hash: it may be the image a holder uploaded (its PDF is recorded).
    if (!live && chain.status === 'not_found') {
      const original = await originalUploadVerdict(src, p);
      if (original) return original;
    }
    // The live row of the wallet the record names as its holder: its transactions are public chain facts
    // (listed whatever its status); its fields only while it is verified.
    const holders = chain.holder_wallet && live?.holder_wallet === chain.holder_wallet ? live : undefined;
    row = holders?.verification_status === 'verified' ? holders : undefined;
    txsOf = holders;
  }
  const part: ChainPart = txsOf ? { ...chain, record_address: chain.record_address ?? txsOf.record_address, transactions: await transactionsOf(src.db, txsOf.id) } : chain;
  const mismatch = p.fileSha256 !== undefined && p.fileSha256 !== p.sha256;
  const found = part.status !== 'not_found';
  // The record now names another holder: an institution issued this file to its rightful holder, so
  // this certificate's claim is over, whatever the record says about the new holder's. It stays over if
  // the record names this wallet again later (an issue back to it is not this claim: chain-sync).
  const superseded = !!row && ((!!part.holder_wallet && part.holder_wallet !== row.holder_wallet) || row.verification_status === 'superseded');
  const verified = part.status === 'verified' && !superseded;
  const details = row ? parseVerificationDetails(row.verification_details) : null;
  // The platform's check is what the verdict rests on at the platform_verified tier: what it flagged goes with it.
  const flags = verified && part.tier === 'platform_verified' ? platformFlags(details) : [];
  const judged = judgeRecord({
    verified,
    tier: part.tier,
    confirmer: part.tier === 'issuer_confirmed' ? part.issuer : null,
    claimsChecked: !row || (row.verification_status === 'verified' && claimsWereChecked(details)),
    claimedInstitution: row?.institution_name || part.confirmation_requested_from?.name || null,
    flags,
  });
  const { valid } = judged;
  let note = judged.note;
  let why = part.reason_text;
  if (part.status === 'expired' && !superseded) {
    // The record is past its expiry: the reason in words, with its date.
    note = expiredNote(part.expires_at);
    why = expiredText(part.expires_at);
  } else if (part.status === 'pending' && live && live.holder_wallet === part.holder_wallet && parseVerificationDetails(live.verification_details)?.kind === 'awaiting_confirmation') {
    const asked = part.confirmation_requested_from?.name;
    note = asked ? `${AWAITING_NOTE} Its holder asked ${asked} to confirm it.` : AWAITING_NOTE;
  }
  const verdict: VerdictDto = {
    valid: valid && !mismatch,
    note,
    flags,
    original_sha256: null,
    integrity: p.fileSha256 === undefined ? 'not_checked' : mismatch ? 'mismatch' : found ? 'match' : 'not_checked',
    ...(mismatch ? { expected_sha256: p.sha256, actual_sha256: p.fileSha256 } : {}),
    ...part,
    reason_text: why,
    ...(superseded ? { status: 'superseded' as const, tier: 'none' as const, reason_code: ReasonCode.RevokedSuperseded, reason: reasonName(ReasonCode.RevokedSuperseded), reason_text: SUPERSEDED_TEXT } : {}),
    certificate: row ? toPublicCertificateDto(row, row, p.origin) : null,
    checked_at: new Date().toISOString(),
  };
  const expiresAt = chain.expires_at ? Date.parse(chain.expires_at) / 1000 : null;
  const inputs: VerdictInputs = {
    certId: live?.id ?? null,
    userId: live?.user_id ?? null,
    recordAddress: chain.record_address,
    issuerAuthority: chain.issuer?.authority ?? chain.confirmation_requested_from?.authority ?? null,
    // Past its expiry a record reads expired, or stays revoked: either way nothing is left to wait for
    // (a past time here would have the verdict store compute it again at every refresh, #15's review).
    expiresAt: chain.status === 'expired' || chain.status === 'revoked' ? null : expiresAt,
  };
  return { verdict, inputs };
}

/**
 * The verdict of a hash that is the SHA-256 of an image a holder uploaded (`original_sha256`: Attesta
 * converted it to the PDF whose hash is recorded): that certificate's verdict by its PDF's hash, saying so.
 * Only where that verdict shows the certificate (verified, its record's holder's), as for every row field;
 * otherwise null (the hash is answered as not found). One indexed lookup (certificate_original_sha256_idx).
 */
async function originalUploadVerdict(src: VerdictSources, p: VerdictQuery): Promise<{ verdict: VerdictDto; inputs: VerdictInputs } | null> {
  const upload = await findVerifiedByOriginal(src.db, p.sha256);
  if (!upload || upload.sha256 === p.sha256) return null;
  const { verdict, inputs } = await computeVerdict(src, { sha256: upload.sha256, origin: p.origin });
  if (verdict.certificate?.id !== upload.id) return null;
  // Not the recorded file itself: its integrity is the upload's record, said by original_sha256.
  return { verdict: { ...verdict, integrity: 'not_checked', original_sha256: p.sha256 }, inputs };
}

/** The transactions this server sent for certificate `certId`, oldest first. */
async function transactionsOf(db: Services['db'], certId: string): Promise<ChainPart['transactions']> {
  const rows = await db.selectFrom('chain_transaction').select(['kind', 'signature', 'slot', 'created_at']).where('certificate_id', '=', certId).orderBy('slot').execute();
  return rows.map((t) => ({ kind: t.kind, signature: t.signature, slot: t.slot, created_at: t.created_at }));
}

/** What the chain says about `sha256` (the transactions of a certificate are added by the caller). */
export async function chainPartOf(svc: { db: Services['db']; chain: ChainRecords }, sha256: string, storedAddress?: string | null): Promise<ChainPart> {
  const { chain } = svc;
  const hash = fromHex(sha256);
  const found = await chain.readCertificateRecord(hash, storedAddress);
  const record: CertificateAccount | null = found?.record ?? null;
  const now = await chain.now();
  let status: VerdictStatus = 'not_found';
  if (record) status = record.status !== CertificateStatus.Revoked && isExpired(record, now) ? 'expired' : certificateStatusName(record.status) ?? 'pending';
  // The record's `issuer` is the institution that issued or confirmed it only at the issuer-confirmed
  // tier; below it, the one the holder asked to confirm it: never shown as the issuer.
  let issuer: VerdictDto['issuer'] = null;
  let requested: VerdictDto['confirmation_requested_from'] = null;
  if (record?.issuer) {
    const acc = await chain.readIssuer(record.issuer);
    const authority = record.issuer.toBase58();
    const profile = acc ? await svc.db.selectFrom('issuer_profile').select(['domain', 'proof_status']).where('authority', '=', authority).executeTakeFirst() : undefined;
    const named = {
      authority,
      name: acc?.name ?? null,
      uri: acc?.uri ?? null,
      status: acc ? issuerStatusName(acc.status) ?? null : null,
      domain: profile?.domain ?? null,
      domain_proven: profile?.proof_status === 'proven',
    };
    if (record.tier === TrustTier.IssuerConfirmed) issuer = named;
    else requested = named;
  }
  return {
    status,
    sha256,
    record_address: found ? found.address.toBase58() : null,
    tier: record ? trustTierName(record.tier) ?? 'none' : 'none',
    reason_code: record?.reasonCode ?? 0,
    reason: record && record.reasonCode ? reasonName(record.reasonCode) : null,
    reason_text: record && record.reasonCode ? reasonText(record.reasonCode) : null,
    issuer,
    confirmation_requested_from: requested,
    holder_wallet: record?.holder.toBase58() ?? null,
    verifier: record?.verifier?.toBase58() ?? null,
    nft_mint: record?.nftMint?.toBase58() ?? null,
    anchored_at: record ? iso(record.anchoredAt) : null,
    verified_at: record ? iso(record.verifiedAt) : null,
    revoked_at: record ? iso(record.revokedAt) : null,
    expires_at: record ? iso(record.expiresAt) : null,
    transactions: [],
    chain: { mode: chain.mode, program_id: chain.programId.toBase58() },
  };
}
