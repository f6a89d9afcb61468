import { PublicKey, SystemProgram, TransactionInstruction, type AccountMeta } from '@solana/web3.js';
import { instructionDiscriminator } from './discriminators';
import { certificatePda, issuerPda, registryPda } from './pda';

// Instruction builders for the certificates program, byte for byte per programs/certificates/SPEC.md
// (Anchor ABI: 8-byte discriminator ++ Borsh args), without Anchor: the server's RPC and embedded
// chains, the demo seeder, the CLI and tests build identical instructions. `mint_certificate` is in
// ./mint.ts with the rest of the soulbound mint. tests/program/instructions.test.ts pins each builder
// to the Anchor client built from the IDL.

class Borsh {
  private parts: Uint8Array[] = [];
  u8(v: number) { this.parts.push(Uint8Array.of(v)); return this; }
  bool(v: boolean) { return this.u8(v ? 1 : 0); }
  i64(v: bigint) { const b = new Uint8Array(8); new DataView(b.buffer).setBigInt64(0, v, true); this.parts.push(b); return this; }
  bytes(v: Uint8Array) { this.parts.push(v); return this; }
  pubkey(k: PublicKey) { return this.bytes(k.toBytes()); }
  string(s: string) {
    const utf8 = new TextEncoder().encode(s);
    const len = new Uint8Array(4);
    new DataView(len.buffer).setUint32(0, utf8.length, true);
    this.parts.push(len, utf8);
    return this;
  }
  build(name: string) {
    const disc = instructionDiscriminator(name);
    const total = this.parts.reduce((n, p) => n + p.length, disc.length);
    const out = new Uint8Array(total);
    out.set(disc, 0);
    let o = disc.length;
    for (const p of this.parts) { out.set(p, o); o += p.length; }
    return Buffer.from(out);
  }
}

const w = (pubkey: PublicKey, isSigner = false): AccountMeta => ({ pubkey, isSigner, isWritable: true });
const r = (pubkey: PublicKey, isSigner = false): AccountMeta => ({ pubkey, isSigner, isWritable: false });

function hash32(hash: Uint8Array) {
  if (hash.length !== 32) throw new Error('hash must be 32 bytes');
  return hash;
}

export function initializeIx(programId: PublicKey, admin: PublicKey) {
  const [registry] = registryPda(programId);
  return new TransactionInstruction({
    programId,
    keys: [w(registry), w(admin, true), r(SystemProgram.programId)],
    data: new Borsh().build('initialize'),
  });
}

export function setVerifierIx(programId: PublicKey, admin: PublicKey, verifier: PublicKey, enabled: boolean) {
  const [registry] = registryPda(programId);
  return new TransactionInstruction({
    programId,
    keys: [w(registry), r(admin, true)],
    data: new Borsh().pubkey(verifier).bool(enabled).build('set_verifier'),
  });
}

export function registerIssuerIx(programId: PublicKey, p: { authority: PublicKey; payer: PublicKey; name: string; uri: string }) {
  const [issuer] = issuerPda(p.authority, programId);
  const [registry] = registryPda(programId);
  return new TransactionInstruction({
    programId,
    keys: [w(issuer), r(p.authority, true), w(p.payer, true), w(registry), r(SystemProgram.programId)],
    data: new Borsh().string(p.name).string(p.uri).build('register_issuer'),
  });
}

export function setIssuerStatusIx(programId: PublicKey, p: { authority: PublicKey; admin: PublicKey; status: number }) {
  const [issuer] = issuerPda(p.authority, programId);
  const [registry] = registryPda(programId);
  return new TransactionInstruction({
    programId,
    keys: [w(issuer), r(registry), r(p.admin, true)],
    data: new Borsh().u8(p.status).build('set_issuer_status'),
  });
}

export function anchorCertificateIx(
  programId: PublicKey,
  p: { hash: Uint8Array; holder: PublicKey; verifier: PublicKey; payer: PublicKey; expiresAt: bigint },
) {
  const [certificate] = certificatePda(hash32(p.hash), programId);
  const [registry] = registryPda(programId);
  const verifierIsPayer = p.verifier.equals(p.payer);
  return new TransactionInstruction({
    programId,
    keys: [
      w(certificate),
      r(p.holder),
      verifierIsPayer ? w(p.verifier, true) : r(p.verifier, true),
      w(p.payer, true),
      w(registry),
      r(SystemProgram.programId),
    ],
    data: new Borsh().bytes(p.hash).i64(p.expiresAt).build('anchor_certificate'),
  });
}

/**
 * An approved issuer records `hash` for `holder`, already verified and issuer-confirmed. If the record
 * exists and is not issuer-confirmed (or is this issuer's own revoked record) it is superseded.
 */
export function issueCertificateIx(
  programId: PublicKey,
  p: { hash: Uint8Array; holder: PublicKey; authority: PublicKey; payer: PublicKey; expiresAt: bigint },
) {
  const [certificate] = certificatePda(hash32(p.hash), programId);
  const [issuer] = issuerPda(p.authority, programId);
  const [registry] = registryPda(programId);
  return new TransactionInstruction({
    programId,
    keys: [w(certificate), r(p.holder), r(issuer), r(p.authority, true), w(p.payer, true), w(registry), r(SystemProgram.programId)],
    data: new Borsh().bytes(p.hash).i64(p.expiresAt).build('issue_certificate'),
  });
}

/**
 * The holder asks the approved issuer of `issuerAuthority` to confirm the certificate (replaces an
 * earlier request). The holder signs; the fee payer (the platform) is the transaction's.
 */
export function requestConfirmationIx(programId: PublicKey, p: { hash: Uint8Array; holder: PublicKey; issuerAuthority: PublicKey }) {
  const [certificate] = certificatePda(hash32(p.hash), programId);
  const [issuer] = issuerPda(p.issuerAuthority, programId);
  return new TransactionInstruction({
    programId,
    keys: [w(certificate), r(issuer), r(p.holder, true)],
    data: new Borsh().bytes(p.hash).build('request_confirmation'),
  });
}

/** The issuer the holder asked confirms: verified, issuer-confirmed (registry: verified_count). */
export function confirmCertificateIx(programId: PublicKey, p: { hash: Uint8Array; authority: PublicKey }) {
  const [certificate] = certificatePda(hash32(p.hash), programId);
  const [issuer] = issuerPda(p.authority, programId);
  const [registry] = registryPda(programId);
  return new TransactionInstruction({
    programId,
    keys: [w(certificate), r(issuer), r(p.authority, true), w(registry)],
    data: new Borsh().bytes(p.hash).build('confirm_certificate'),
  });
}

export function recordVerificationIx(
  programId: PublicKey,
  p: {
    hash: Uint8Array;
    verifier: PublicKey;
    verified: boolean;
    reasonCode: number;
    /**
     * @deprecated Ignored: record_verification no longer takes the issuer account (a positive verdict
     * is always platform_verified). Still accepted so existing callers compile.
     */
    issuerAuthority?: PublicKey | null;
  },
) {
  const [certificate] = certificatePda(hash32(p.hash), programId);
  const [registry] = registryPda(programId);
  return new TransactionInstruction({
    programId,
    keys: [w(certificate), w(registry), r(p.verifier, true)],
    data: new Borsh().bytes(p.hash).bool(p.verified).u8(p.reasonCode).build('record_verification'),
  });
}

/** Admin, a platform verifier, or `certificate.issuer` (issued, confirmed, or asked by the holder). */
export function revokeCertificateIx(programId: PublicKey, p: { hash: Uint8Array; authority: PublicKey; reasonCode: number }) {
  const [certificate] = certificatePda(hash32(p.hash), programId);
  const [registry] = registryPda(programId);
  return new TransactionInstruction({
    programId,
    keys: [w(certificate), w(registry), r(p.authority, true)],
    data: new Borsh().bytes(p.hash).u8(p.reasonCode).build('revoke_certificate'),
  });
}
