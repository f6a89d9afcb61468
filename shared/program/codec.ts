import { PublicKey } from '@solana/web3.js';
import { MAX_ISSUER_NAME } from '../constants';
import { accountDiscriminator } from './discriminators';

// Decoders from raw account bytes, no Anchor: for light clients (CLI, browser) and for tests
// that must read state independently of the IDL. Layouts are SPEC.md's, byte for byte.

export const IssuerStatus = { Pending: 0, Approved: 1, Suspended: 2 } as const;
export type IssuerStatus = (typeof IssuerStatus)[keyof typeof IssuerStatus];

export const CertificateStatus = { Pending: 0, Verified: 1, Rejected: 2, Revoked: 3 } as const;
export type CertificateStatus = (typeof CertificateStatus)[keyof typeof CertificateStatus];

export const TrustTier = { None: 0, PlatformVerified: 1, IssuerConfirmed: 2 } as const;
export type TrustTier = (typeof TrustTier)[keyof typeof TrustTier];

export const MAX_VERIFIERS = 4;
// Defined with the app's constants: the registration form validates it without loading this codec (@solana/web3.js).
export { MAX_ISSUER_NAME };
export const MAX_ISSUER_URI = 128;

export const REGISTRY_LEN = 210;
export const ISSUER_LEN = 258;
export const CERTIFICATE_LEN = 172;

export const REGISTRY_DISCRIMINATOR = accountDiscriminator('Registry');
export const ISSUER_DISCRIMINATOR = accountDiscriminator('Issuer');
export const CERTIFICATE_DISCRIMINATOR = accountDiscriminator('Certificate');

export interface RegistryAccount {
  admin: PublicKey;
  /** Only the enabled verifiers (zero slots dropped). */
  verifiers: PublicKey[];
  verifierCount: number;
  bump: number;
  issuerCount: bigint;
  certificateCount: bigint;
  verifiedCount: bigint;
  revokedCount: bigint;
  mintedCount: bigint;
}

export interface IssuerAccount {
  authority: PublicKey;
  status: IssuerStatus;
  bump: number;
  registeredAt: bigint;
  updatedAt: bigint;
  name: string;
  uri: string;
}

export interface CertificateAccount {
  holder: PublicKey;
  /** Issuer *authority*, or null when none. */
  issuer: PublicKey | null;
  /** Latest verdict's or the revocation's signer, or null. */
  verifier: PublicKey | null;
  nftMint: PublicKey | null;
  anchoredAt: bigint;
  verifiedAt: bigint;
  revokedAt: bigint;
  /** 0 = never expires. */
  expiresAt: bigint;
  status: CertificateStatus;
  tier: TrustTier;
  reasonCode: number;
  bump: number;
}

export class AccountDecodeError extends Error {}

class Reader {
  private view: DataView;
  constructor(private bytes: Uint8Array, public offset = 0) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  private need(n: number) {
    if (this.offset + n > this.bytes.length) throw new AccountDecodeError(`account data ends at ${this.bytes.length}, need ${this.offset + n}`);
  }
  u8() { this.need(1); return this.bytes[this.offset++]; }
  u32() { this.need(4); const v = this.view.getUint32(this.offset, true); this.offset += 4; return v; }
  u64() { this.need(8); const v = this.view.getBigUint64(this.offset, true); this.offset += 8; return v; }
  i64() { this.need(8); const v = this.view.getBigInt64(this.offset, true); this.offset += 8; return v; }
  pubkey() { this.need(32); const v = new PublicKey(this.bytes.subarray(this.offset, this.offset + 32)); this.offset += 32; return v; }
  optPubkey() { const k = this.pubkey(); return k.equals(PublicKey.default) ? null : k; }
  string(max: number) {
    const len = this.u32();
    if (len > max) throw new AccountDecodeError(`string length ${len} exceeds ${max}`);
    this.need(len);
    const s = new TextDecoder('utf-8', { fatal: true }).decode(this.bytes.subarray(this.offset, this.offset + len));
    this.offset += len;
    return s;
  }
}

function checkHeader(data: Uint8Array, disc: Uint8Array, len: number, name: string) {
  if (data.length < len) throw new AccountDecodeError(`${name}: ${data.length} bytes, expected ${len}`);
  for (let i = 0; i < 8; i++) if (data[i] !== disc[i]) throw new AccountDecodeError(`${name}: wrong discriminator`);
}

export function decodeRegistry(data: Uint8Array): RegistryAccount {
  checkHeader(data, REGISTRY_DISCRIMINATOR, REGISTRY_LEN, 'Registry');
  const r = new Reader(data, 8);
  const admin = r.pubkey();
  const slots = Array.from({ length: MAX_VERIFIERS }, () => r.pubkey());
  return {
    admin,
    verifiers: slots.filter((k) => !k.equals(PublicKey.default)),
    verifierCount: r.u8(),
    bump: r.u8(),
    issuerCount: r.u64(),
    certificateCount: r.u64(),
    verifiedCount: r.u64(),
    revokedCount: r.u64(),
    mintedCount: r.u64(),
  };
}

export function decodeIssuer(data: Uint8Array): IssuerAccount {
  checkHeader(data, ISSUER_DISCRIMINATOR, ISSUER_LEN, 'Issuer');
  const r = new Reader(data, 8);
  return {
    authority: r.pubkey(),
    status: r.u8() as IssuerStatus,
    bump: r.u8(),
    registeredAt: r.i64(),
    updatedAt: r.i64(),
    name: r.string(MAX_ISSUER_NAME),
    uri: r.string(MAX_ISSUER_URI),
  };
}

export function decodeCertificate(data: Uint8Array): CertificateAccount {
  checkHeader(data, CERTIFICATE_DISCRIMINATOR, CERTIFICATE_LEN, 'Certificate');
  const r = new Reader(data, 8);
  return {
    holder: r.pubkey(),
    issuer: r.optPubkey(),
    verifier: r.optPubkey(),
    nftMint: r.optPubkey(),
    anchoredAt: r.i64(),
    verifiedAt: r.i64(),
    revokedAt: r.i64(),
    expiresAt: r.i64(),
    status: r.u8() as CertificateStatus,
    tier: r.u8() as TrustTier,
    reasonCode: r.u8(),
    bump: r.u8(),
  };
}

/** `expired` is derived, never stored (SPEC.md). `now` in unix seconds. */
export function isExpired(cert: Pick<CertificateAccount, 'expiresAt'>, now: bigint): boolean {
  return cert.expiresAt !== 0n && now > cert.expiresAt;
}

export const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

export function fromHex(hex: string): Uint8Array {
  if (!/^([0-9a-fA-F]{2})*$/.test(hex)) throw new Error('invalid hex');
  return Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
}
