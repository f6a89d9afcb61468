import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Connection, PublicKey } from '@solana/web3.js';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { CertificateStatus, decodeCertificate, decodeIssuer, fromHex, IssuerStatus, isExpired, toHex, TrustTier, type CertificateAccount, type IssuerAccount } from '../shared/program/codec';
import { CERTIFICATES_PROGRAM_ID, TOKEN_2022_ID } from '../shared/program/ids';
import { certificatePda, issuerPda } from '../shared/program/pda';
import { certificateStatusName, issuerStatusName, trustTierName } from '../shared/program/names';
import { reasonName, reasonText, revokerRoleText } from '../shared/program/reasons';

// Verifies a certificate from the chain alone: any Solana JSON-RPC endpoint, no Attesta server.
// The record's address is derived from the document's SHA-256, so "a record exists at this
// address" *is* the integrity check: a changed byte gives another hash, hence no record.
// What the chain cannot tell is said, never passed over: whether the institution proved its domain
// (the Attesta server checks that off chain) is not checked here, and the output says so.

export const ExitCode = { Valid: 0, NotValid: 1, NotFound: 2, Error: 3 } as const;

export type StepResult = 'pass' | 'fail' | 'warn' | 'info';
export interface Step {
  step: 'integrity' | 'status' | 'expiry' | 'tier' | 'issuer' | 'holder' | 'nft' | 'timestamps';
  result: StepResult;
  detail: string;
}

export interface Verdict {
  verdict: 'valid' | 'not_valid' | 'not_found';
  valid: boolean;
  exitCode: number;
  reason: string;
  sha256: string;
  input: { kind: 'file' | 'hash'; path?: string; bytes?: number };
  rpc: string;
  programId: string;
  record: string;
  checkedAt: string;
  certificate: null | {
    status: string;
    tier: string;
    reasonCode: number;
    /** The reason code's name (content_mismatch, revoked_fraud…). */
    reason: string;
    /** The reason in plain words (null when there is none). */
    reasonText: string | null;
    holder: string;
    issuer: string | null;
    verifier: string | null;
    nftMint: string | null;
    anchoredAt: string | null;
    verifiedAt: string | null;
    revokedAt: string | null;
    expiresAt: string | null;
    expired: boolean;
  };
  /**
   * The institution whose own key issued or confirmed the record (issuer_confirmed tier only). Its
   * domain proof is kept by the Attesta server, off chain: `domainProof` says it was not checked here.
   */
  issuer: null | { authority: string; address: string; name: string | null; uri: string | null; domain?: string | null; domainProof?: 'not_checked'; status: string; approved: boolean };
  /** The institution the holder asked to confirm it, while it has not: never a confirmation. */
  confirmationRequestedFrom?: null | { authority: string; address: string; name: string | null; uri: string | null; status: string; approved: boolean };
  nft: null | { mint: string; tokenAccount: string | null; held: boolean; amount: string; supply: string | null; metadataNamesHash: boolean };
  steps: Step[];
}


const iso = (t: bigint) => (t === 0n ? null : new Date(Number(t) * 1000).toISOString());

/** The host an Issuer account's uri names ("https://uni.example/x" → "uni.example"), or null. */
export function domainOf(uri: string | null | undefined): string | null {
  const host = (uri ?? '').trim().toLowerCase().replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/[/:?#].*$/, '').replace(/\.$/, '');
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(host) ? host : null;
}

export class UsageError extends Error {}

/** A file path (hashed) or a 64-hex SHA-256. A path that exists wins over a hex-looking name. */
export function resolveInput(arg: string): { hash: Uint8Array; input: Verdict['input'] } {
  if (fs.existsSync(arg) && fs.statSync(arg).isFile()) {
    const bytes = fs.readFileSync(arg);
    return { hash: createHash('sha256').update(bytes).digest(), input: { kind: 'file', path: arg, bytes: bytes.length } };
  }
  const hex = arg.replace(/^0x/i, '');
  if (/^[0-9a-fA-F]{64}$/.test(hex)) return { hash: fromHex(hex.toLowerCase()), input: { kind: 'hash' } };
  throw new UsageError(`"${arg}" is neither a readable file nor a 64-character hex SHA-256.`);
}

interface TokenAccount {
  address: PublicKey;
  mint: PublicKey;
  owner: PublicKey;
  amount: bigint;
  state: number;
}

function decodeTokenAccount(address: PublicKey, data: Uint8Array): TokenAccount | null {
  if (data.length < 165) return null;
  const b = Buffer.from(data);
  return { address, mint: new PublicKey(b.subarray(0, 32)), owner: new PublicKey(b.subarray(32, 64)), amount: b.readBigUInt64LE(64), state: b[108] };
}

export async function verifyCertificate(p: { arg: string; rpc: string; programId?: string; now?: Date }): Promise<Verdict> {
  const { hash, input } = resolveInput(p.arg);
  let programId: PublicKey;
  try {
    programId = p.programId ? new PublicKey(p.programId) : CERTIFICATES_PROGRAM_ID;
  } catch {
    throw new UsageError(`--program "${p.programId}" is not a base58 public key.`);
  }
  const conn = new Connection(p.rpc, { commitment: 'confirmed', disableRetryOnRateLimit: true });
  const record = certificatePda(hash, programId)[0];
  const sha256 = toHex(hash);
  const now = BigInt(Math.floor((p.now ?? new Date()).getTime() / 1000));
  const base = { sha256, input, rpc: p.rpc, programId: programId.toBase58(), record: record.toBase58(), checkedAt: new Date(Number(now) * 1000).toISOString() };
  const steps: Step[] = [];

  const acc = await conn.getAccountInfo(record, 'confirmed');
  if (!acc || acc.data.length === 0) {
    const why =
      input.kind === 'file'
        ? 'No certificate record exists on chain for this file. It was never registered, or it is not the registered file (a single changed byte changes its SHA-256).'
        : 'No certificate record exists on chain for this SHA-256.';
    steps.push({ step: 'integrity', result: 'fail', detail: `${why} Looked up ${record.toBase58()}.` });
    return { ...base, verdict: 'not_found', valid: false, exitCode: ExitCode.NotFound, reason: why, certificate: null, issuer: null, nft: null, steps };
  }
  if (!acc.owner.equals(programId)) {
    const why = `The account at ${record.toBase58()} is not owned by the certificates program ${programId.toBase58()}.`;
    steps.push({ step: 'integrity', result: 'fail', detail: why });
    return { ...base, verdict: 'not_found', valid: false, exitCode: ExitCode.NotFound, reason: why, certificate: null, issuer: null, nft: null, steps };
  }
  let cert: CertificateAccount;
  try {
    cert = decodeCertificate(new Uint8Array(acc.data));
  } catch (e) {
    const why = `The account at ${record.toBase58()} is not a certificate record (${e instanceof Error ? e.message : String(e)}).`;
    steps.push({ step: 'integrity', result: 'fail', detail: why });
    return { ...base, verdict: 'not_valid', valid: false, exitCode: ExitCode.NotValid, reason: why, certificate: null, issuer: null, nft: null, steps };
  }
  steps.push({ step: 'integrity', result: 'pass', detail: `A certificate record for this SHA-256 exists on chain at ${record.toBase58()}${input.kind === 'file' ? ' (the file is the registered one, byte for byte)' : ''}.` });

  // Issuer, NFT mint and the holder's token account in one round trip.
  const issuerAddr = cert.issuer ? issuerPda(cert.issuer, programId)[0] : null;
  const ata = cert.nftMint ? getAssociatedTokenAddressSync(cert.nftMint, cert.holder, false, TOKEN_2022_ID) : null;
  const wanted = [issuerAddr, cert.nftMint, ata].filter((k): k is PublicKey => k !== null);
  const fetched = wanted.length ? await conn.getMultipleAccountsInfo(wanted, 'confirmed') : [];
  const got = (k: PublicKey | null) => (k ? (fetched[wanted.findIndex((w) => w.equals(k))] ?? null) : null);

  const expired = isExpired(cert, now);
  const status = certificateStatusName(cert.status) ?? `unknown(${cert.status})`;
  const tier = trustTierName(cert.tier) ?? `unknown(${cert.tier})`;
  const reason = reasonName(cert.reasonCode);
  const why = cert.reasonCode ? reasonText(cert.reasonCode) : null;
  const issuerConfirmed = cert.tier === TrustTier.IssuerConfirmed;

  // The institution the record names: at the issuer-confirmed tier the one whose own key signed it;
  // below it, the one the holder asked to confirm it (never a confirmation).
  let named: (NonNullable<Verdict['issuer']> & { decoded: boolean }) | null = null;
  if (cert.issuer && issuerAddr) {
    const ia = got(issuerAddr);
    let decoded: IssuerAccount | null = null;
    if (ia && ia.owner.equals(programId)) {
      try {
        decoded = decodeIssuer(new Uint8Array(ia.data));
      } catch {
        decoded = null;
      }
    }
    const uri = decoded?.uri || null;
    named = {
      authority: cert.issuer.toBase58(),
      address: issuerAddr.toBase58(),
      name: decoded?.name ?? null,
      uri,
      domain: domainOf(uri),
      status: decoded ? (issuerStatusName(decoded.status) ?? `unknown(${decoded.status})`) : 'missing',
      approved: decoded?.status === IssuerStatus.Approved,
      decoded: !!decoded,
    };
  }
  const who = named ? (named.decoded ? `"${named.name}"${named.uri ? ` (${named.uri})` : ''}` : `authority ${named.authority} (no issuer account found)`) : null;
  // The confirming institution counts only while it is approved (the operator may suspend it).
  const confirmerNotApproved = issuerConfirmed && !named?.approved;

  // Whether the record counts now: every line agrees with that (a step that held once, on a record that
  // no longer counts, is said as what it had, never as a pass beside NOT VALID).
  const counts = cert.status === CertificateStatus.Verified && !expired;
  const nowIs = expired && cert.status === CertificateStatus.Verified ? 'expired' : status;
  const noLonger = `the record is ${nowIs} now, so this no longer counts`;

  // Status.
  if (cert.status === CertificateStatus.Verified && expired) steps.push({ step: 'status', result: 'fail', detail: `verified on ${iso(cert.verifiedAt) ?? 'an unknown date'}, but expired since ${iso(cert.expiresAt)} (see expiry).` });
  else if (cert.status === CertificateStatus.Verified) steps.push({ step: 'status', result: 'pass', detail: `verified on ${iso(cert.verifiedAt) ?? 'an unknown date'}.` });
  else if (cert.status === CertificateStatus.Pending) steps.push({ step: 'status', result: 'fail', detail: 'pending: anchored, but no verdict has been recorded yet.' });
  else if (cert.status === CertificateStatus.Rejected) steps.push({ step: 'status', result: 'fail', detail: `rejected on ${iso(cert.verifiedAt) ?? 'an unknown date'}: ${why ?? 'no reason recorded'} (${reason}).` });
  else if (cert.status === CertificateStatus.Revoked) {
    // Who revoked it: the institution the record names (issuing, or only asked to confirm), or another key.
    const byInstitution = named && cert.verifier?.equals(cert.issuer!);
    const by = byInstitution ? `${named!.name ?? 'the institution named on the record'}${revokerRoleText('issuer', tier)}, key ${cert.verifier!.toBase58()}` : (cert.verifier?.toBase58() ?? 'an unknown key');
    steps.push({ step: 'status', result: 'fail', detail: `revoked on ${iso(cert.revokedAt) ?? 'an unknown date'} by ${by}: ${why ?? 'no reason recorded'} (${reason}).` });
  } else steps.push({ step: 'status', result: 'fail', detail: `unknown status ${cert.status}.` });

  // Expiry.
  if (cert.expiresAt === 0n) steps.push({ step: 'expiry', result: 'pass', detail: 'never expires.' });
  else if (expired) steps.push({ step: 'expiry', result: 'fail', detail: `expired on ${iso(cert.expiresAt)}.` });
  else steps.push({ step: 'expiry', result: 'pass', detail: `valid until ${iso(cert.expiresAt)}.` });

  // Tier: what the record says was checked, and by whom. The institution's part is judged in the
  // issuer step (whose key, its registration, its domain), never passed here on the tier alone.
  if (issuerConfirmed) {
    steps.push({
      step: 'tier',
      result: 'info',
      detail: `issuer_confirmed: the record says the institution's own key issued or confirmed it; whose key, its registration and its domain: see issuer.${counts ? '' : ` But ${noLonger}.`}`,
    });
  } else if (cert.tier === TrustTier.PlatformVerified) {
    const what =
      'checked by Attesta only (the file is intact and its text names the claimed title, institution, program and holder); not confirmed by the institution. What that check flagged, if anything (signs of editing), is kept off chain by the Attesta server: see its verdict';
    steps.push(counts ? { step: 'tier', result: 'pass', detail: `platform_verified: ${what}.` } : { step: 'tier', result: 'info', detail: `platform_verified, what it had: ${what}. But ${noLonger}.` });
  } else steps.push({ step: 'tier', result: 'info', detail: 'none: no positive verdict.' });

  // Issuer.
  let issuer: Verdict['issuer'] = null;
  let confirmationRequestedFrom: Verdict['issuer'] = null;
  if (named) {
    const { decoded: _decoded, ...institution } = named;
    if (issuerConfirmed) {
      issuer = { ...institution, domainProof: 'not_checked' };
      const signed = `its own key ${named.authority} signed this record`;
      if (!named.approved) {
        steps.push({ step: 'issuer', result: 'fail', detail: `${who}, ${named.status}: ${signed}, but an institution that is not approved confirms nothing.` });
      } else {
        const domain = named.domain;
        const proof = domain
          ? `its domain ${domain} is NOT checked by this CLI (the domain proof is kept off chain by the Attesta server). To check it: a DNS TXT record "attesta-issuer=${named.authority}" at _attesta.${domain}, or https://${domain}/.well-known/attesta-issuer.json naming it.`
          : 'it names no domain on chain, and no domain proof is checked by this CLI.';
        steps.push(
          counts
            ? { step: 'issuer', result: 'warn', detail: `${who}, approved; ${signed}. Whether it proved its domain: ${proof}` }
            : { step: 'issuer', result: 'info', detail: `${who}, approved; ${signed}, but ${noLonger}.` },
        );
      }
    } else {
      confirmationRequestedFrom = institution;
      // Below the issuer-confirmed tier the record names the institution the holder asked: not a confirmation.
      steps.push({ step: 'issuer', result: 'info', detail: `confirmation requested from ${who} (${named.status}); not confirmed by it.` });
    }
  } else if (issuerConfirmed) {
    steps.push({ step: 'issuer', result: 'fail', detail: 'the record is issuer_confirmed but names no institution.' });
  } else {
    steps.push({ step: 'issuer', result: 'info', detail: 'none named on chain: no institution has confirmed it.' });
  }

  steps.push({ step: 'holder', result: 'info', detail: cert.holder.toBase58() });

  // NFT: a soulbound Token-2022 mint, held by the holder's associated token account.
  let nft: Verdict['nft'] = null;
  if (cert.nftMint) {
    const mintAcc = got(cert.nftMint);
    let token: TokenAccount | null = ata && got(ata) ? decodeTokenAccount(ata, new Uint8Array(got(ata)!.data)) : null;
    if (!token) {
      // Not at the associated address: any token account of that mint owned by the holder.
      const list = await conn.getTokenAccountsByOwner(cert.holder, { mint: cert.nftMint }, 'confirmed').catch(() => null);
      for (const t of list?.value ?? []) {
        const d = decodeTokenAccount(t.pubkey, new Uint8Array(t.account.data));
        if (d && d.amount > 0n) token = d;
      }
    }
    const supply = mintAcc && mintAcc.owner.equals(TOKEN_2022_ID) && mintAcc.data.length >= 82 ? Buffer.from(mintAcc.data).readBigUInt64LE(36) : null;
    const metadataNamesHash = !!mintAcc && Buffer.from(mintAcc.data).includes(Buffer.from(sha256, 'utf8'));
    const held = !!token && token.owner.equals(cert.holder) && token.mint.equals(cert.nftMint) && token.amount === 1n && token.state === 1;
    nft = { mint: cert.nftMint.toBase58(), tokenAccount: token?.address.toBase58() ?? null, held, amount: (token?.amount ?? 0n).toString(), supply: supply?.toString() ?? null, metadataNamesHash };
    const about = `soulbound NFT ${cert.nftMint.toBase58()}: ${held ? 'held by the holder' : 'NOT held by the holder'}${token ? ` (token account ${token.address.toBase58()}, amount ${token.amount})` : ''}; metadata ${metadataNamesHash ? 'names this SHA-256' : 'does not name this SHA-256'}.`;
    steps.push({
      step: 'nft',
      // A token outlives what it was minted for: beside a record that no longer counts it proves nothing.
      result: held && metadataNamesHash ? (counts && !confirmerNotApproved ? 'pass' : 'info') : 'warn',
      detail: counts && !confirmerNotApproved ? about : `${about} The token does not make the record valid: ${counts ? 'see issuer' : `the record is ${nowIs}`}.`,
    });
  } else {
    steps.push({ step: 'nft', result: 'info', detail: 'not minted.' });
  }

  steps.push({
    step: 'timestamps',
    result: 'info',
    detail: [`anchored ${iso(cert.anchoredAt) ?? '-'}`, `verdict ${iso(cert.verifiedAt) ?? '-'}`, cert.revokedAt ? `revoked ${iso(cert.revokedAt)}` : null, cert.expiresAt ? `expires ${iso(cert.expiresAt)}` : null]
      .filter(Boolean)
      .join(', '),
  });

  const verified = counts;
  const valid = verified && !confirmerNotApproved;
  const intact = 'Not revoked, not expired.';
  const requestedName = confirmationRequestedFrom?.name ? `"${confirmationRequestedFrom.name}"` : 'the institution';
  const reasonWords = valid
    ? issuerConfirmed
      ? `issued or confirmed by ${issuer?.name ? `"${issuer.name}"` : 'the institution'} with its own key (an approved issuer on chain); its domain${issuer?.domain ? ` ${issuer.domain}` : ''} is not checked by this CLI (see issuer). ${intact}`
      : cert.tier === TrustTier.PlatformVerified
        ? `checked by Attesta only, not confirmed by the institution (the file is intact and its text names the claimed title, institution, program and holder); ${confirmationRequestedFrom ? `the holder asked ${requestedName} to confirm it, which it has not done yet` : 'ask the holder to request confirmation'}. ${intact}`
        : `verified on chain, with no trust tier recorded. ${intact}`
    : verified && confirmerNotApproved
      ? named
        ? `${named.name ? `"${named.name}"` : 'The institution'} signed this record with its own key, but ${named.decoded ? `its registration is ${named.status}` : 'it has no issuer account on chain'}: its confirmation does not count.`
        : 'The record is issuer_confirmed but names no institution.'
      : cert.status === CertificateStatus.Verified && expired
        ? `The certificate expired on ${iso(cert.expiresAt)}.`
        : cert.status === CertificateStatus.Revoked
          ? `The certificate was revoked on ${iso(cert.revokedAt) ?? 'an unknown date'}: ${why ?? 'no reason recorded'}.`
          : cert.status === CertificateStatus.Rejected
            ? `The certificate was rejected: ${why ?? 'no reason recorded'}.`
            : cert.status === CertificateStatus.Pending
              ? 'The certificate is pending verification.'
              : `Unknown certificate status ${cert.status}.`;
  return {
    ...base,
    verdict: valid ? 'valid' : 'not_valid',
    valid,
    exitCode: valid ? ExitCode.Valid : ExitCode.NotValid,
    reason: reasonWords,
    certificate: {
      status,
      tier,
      reasonCode: cert.reasonCode,
      reason,
      reasonText: why,
      holder: cert.holder.toBase58(),
      issuer: cert.issuer?.toBase58() ?? null,
      verifier: cert.verifier?.toBase58() ?? null,
      nftMint: cert.nftMint?.toBase58() ?? null,
      anchoredAt: iso(cert.anchoredAt),
      verifiedAt: iso(cert.verifiedAt),
      revokedAt: iso(cert.revokedAt),
      expiresAt: iso(cert.expiresAt),
      expired,
    },
    issuer,
    confirmationRequestedFrom,
    nft,
    steps,
  };
}
