import { randomBytes } from 'node:crypto';
// bn.js (what Anchor encodes i64 from) ships no types; Anchor's own BN re-export is untyped too,
// and tsx cannot see it as a named export of Anchor's CommonJS build.
// @ts-ignore
import BN from 'bn.js';
export { BN };
import { Keypair, LAMPORTS_PER_SOL, PublicKey, TransactionInstruction } from '@solana/web3.js';
import { certificatePda, issuerPda, registryPda } from '../../../shared/program/pda';
import {
  decodeCertificate,
  decodeIssuer,
  decodeRegistry,
  IssuerStatus,
  type CertificateAccount,
  type IssuerAccount,
  type RegistryAccount,
} from '../../../shared/program/codec';
import type { Runtime, TxResult } from './runtime';

/** A fresh document hash; no two tests share one. */
export const aHash = (): Uint8Array => new Uint8Array(randomBytes(32));

export const ISSUER_STATUS_ARG = {
  [IssuerStatus.Pending]: { pending: {} },
  [IssuerStatus.Approved]: { approved: {} },
  [IssuerStatus.Suspended]: { suspended: {} },
} as const;

/** The instruction with `key` no longer marked as a signer: the program itself must notice. */
export function withoutSignature(ix: TransactionInstruction, key: PublicKey): TransactionInstruction {
  return new TransactionInstruction({
    programId: ix.programId,
    data: ix.data,
    keys: ix.keys.map((m) => (m.pubkey.equals(key) ? { ...m, isSigner: false } : m)),
  });
}

/** The instruction with `key` passed read-only. */
export function withReadonly(ix: TransactionInstruction, key: PublicKey): TransactionInstruction {
  return new TransactionInstruction({
    programId: ix.programId,
    data: ix.data,
    keys: ix.keys.map((m) => (m.pubkey.equals(key) ? { ...m, isWritable: false } : m)),
  });
}

/** The instruction with more accounts after its own (the program ignores trailing accounts). */
export function withExtraAccounts(ix: TransactionInstruction, ...keys: TransactionInstruction['keys']): TransactionInstruction {
  return new TransactionInstruction({ programId: ix.programId, data: ix.data, keys: [...ix.keys, ...keys] });
}

/** The instruction with only its first `count` accounts (a client built for an older interface). */
export function withAccountsTruncated(ix: TransactionInstruction, count: number): TransactionInstruction {
  return new TransactionInstruction({ programId: ix.programId, data: ix.data, keys: ix.keys.slice(0, count) });
}

/** The instruction with its account at `index` replaced. */
export function withAccount(ix: TransactionInstruction, index: number, pubkey: PublicKey): TransactionInstruction {
  return new TransactionInstruction({
    programId: ix.programId,
    data: ix.data,
    keys: ix.keys.map((m, i) => (i === index ? { ...m, pubkey } : m)),
  });
}

/**
 * Instruction builders and actions for one runtime. Builders return the Anchor-built
 * instruction; actions send it and return the TxResult. Defaults make every call a valid one.
 */
export class Attesta {
  readonly registry: PublicKey;
  admin!: Keypair;
  /** A verifier enabled by the admin (the admin is verifier 0 as well). */
  verifier!: Keypair;

  constructor(readonly rt: Runtime) {
    [this.registry] = registryPda(rt.programId);
  }

  get program() {
    return this.rt.program;
  }
  get programId() {
    return this.rt.programId;
  }

  certificatePda(hash: Uint8Array) {
    return certificatePda(hash, this.programId)[0];
  }
  issuerPda(authority: PublicKey) {
    return issuerPda(authority, this.programId)[0];
  }

  async funded(sol = 10): Promise<Keypair> {
    const k = Keypair.generate();
    await this.rt.airdrop(k.publicKey, BigInt(sol * LAMPORTS_PER_SOL));
    return k;
  }

  send(ix: TransactionInstruction | TransactionInstruction[], signers: Keypair[]): Promise<TxResult> {
    return this.rt.send(Array.isArray(ix) ? ix : [ix], signers);
  }

  // ── instruction builders ─────────────────────────────────────────────────────────────────────
  initializeIx(admin: PublicKey, registry = this.registry) {
    return this.program.methods.initialize().accountsPartial({ registry, admin }).instruction();
  }
  setVerifierIx(p: { admin: PublicKey; verifier: PublicKey; enabled: boolean; registry?: PublicKey }) {
    return this.program.methods
      .setVerifier(p.verifier, p.enabled)
      .accountsPartial({ registry: p.registry ?? this.registry, admin: p.admin })
      .instruction();
  }
  registerIssuerIx(p: { authority: PublicKey; name: string; uri: string; payer?: PublicKey; issuer?: PublicKey; registry?: PublicKey }) {
    return this.program.methods
      .registerIssuer(p.name, p.uri)
      .accountsPartial({
        issuer: p.issuer ?? this.issuerPda(p.authority),
        authority: p.authority,
        payer: p.payer ?? this.rt.payer.publicKey,
        registry: p.registry ?? this.registry,
      })
      .instruction();
  }
  setIssuerStatusIx(p: { issuer: PublicKey; status: IssuerStatus; admin: PublicKey; registry?: PublicKey }) {
    return this.program.methods
      .setIssuerStatus(ISSUER_STATUS_ARG[p.status])
      .accountsPartial({ issuer: p.issuer, registry: p.registry ?? this.registry, admin: p.admin })
      .instruction();
  }
  anchorCertificateIx(p: { hash: Uint8Array; holder: PublicKey; verifier: PublicKey; expiresAt?: bigint; payer?: PublicKey; certificate?: PublicKey; registry?: PublicKey }) {
    return this.program.methods
      .anchorCertificate(Array.from(p.hash), new BN((p.expiresAt ?? 0n).toString()))
      .accountsPartial({
        certificate: p.certificate ?? this.certificatePda(p.hash),
        holder: p.holder,
        verifier: p.verifier,
        payer: p.payer ?? this.rt.payer.publicKey,
        registry: p.registry ?? this.registry,
      })
      .instruction();
  }
  issueCertificateIx(p: { hash: Uint8Array; holder: PublicKey; authority: PublicKey; issuer?: PublicKey; expiresAt?: bigint; payer?: PublicKey; certificate?: PublicKey; registry?: PublicKey }) {
    return this.program.methods
      .issueCertificate(Array.from(p.hash), new BN((p.expiresAt ?? 0n).toString()))
      .accountsPartial({
        certificate: p.certificate ?? this.certificatePda(p.hash),
        holder: p.holder,
        issuer: p.issuer ?? this.issuerPda(p.authority),
        authority: p.authority,
        payer: p.payer ?? this.rt.payer.publicKey,
        registry: p.registry ?? this.registry,
      })
      .instruction();
  }
  /** `issuer` defaults to the Issuer PDA of `issuerAuthority`. */
  requestConfirmationIx(p: { hash: Uint8Array; holder: PublicKey; issuerAuthority: PublicKey; issuer?: PublicKey; certificate?: PublicKey }) {
    return this.program.methods
      .requestConfirmation(Array.from(p.hash))
      .accountsPartial({
        certificate: p.certificate ?? this.certificatePda(p.hash),
        issuer: p.issuer ?? this.issuerPda(p.issuerAuthority),
        holder: p.holder,
      })
      .instruction();
  }
  confirmCertificateIx(p: { hash: Uint8Array; authority: PublicKey; issuer?: PublicKey; certificate?: PublicKey; registry?: PublicKey }) {
    return this.program.methods
      .confirmCertificate(Array.from(p.hash))
      .accountsPartial({
        certificate: p.certificate ?? this.certificatePda(p.hash),
        issuer: p.issuer ?? this.issuerPda(p.authority),
        authority: p.authority,
        registry: p.registry ?? this.registry,
      })
      .instruction();
  }
  recordVerificationIx(p: {
    hash: Uint8Array;
    verifier: PublicKey;
    verified: boolean;
    reasonCode?: number;
    certificate?: PublicKey;
    registry?: PublicKey;
  }) {
    return this.program.methods
      .recordVerification(Array.from(p.hash), p.verified, p.reasonCode ?? 0)
      .accountsPartial({
        certificate: p.certificate ?? this.certificatePda(p.hash),
        registry: p.registry ?? this.registry,
        verifier: p.verifier,
      })
      .instruction();
  }
  revokeCertificateIx(p: { hash: Uint8Array; authority: PublicKey; reasonCode: number; certificate?: PublicKey; registry?: PublicKey }) {
    return this.program.methods
      .revokeCertificate(Array.from(p.hash), p.reasonCode)
      .accountsPartial({
        certificate: p.certificate ?? this.certificatePda(p.hash),
        registry: p.registry ?? this.registry,
        authority: p.authority,
      })
      .instruction();
  }

  // ── state ────────────────────────────────────────────────────────────────────────────────────
  async registryState(): Promise<RegistryAccount> {
    const a = await this.rt.getAccount(this.registry);
    if (!a) throw new Error('registry does not exist');
    return decodeRegistry(a.data);
  }
  async issuerState(authority: PublicKey): Promise<IssuerAccount> {
    const a = await this.rt.getAccount(this.issuerPda(authority));
    if (!a) throw new Error('issuer does not exist');
    return decodeIssuer(a.data);
  }
  async certificateState(hash: Uint8Array): Promise<CertificateAccount> {
    const a = await this.rt.getAccount(this.certificatePda(hash));
    if (!a) throw new Error('certificate does not exist');
    return decodeCertificate(a.data);
  }
  async exists(address: PublicKey) {
    return (await this.rt.getAccount(address)) !== null;
  }

  /** Events our program emitted in a transaction, decoded with the IDL. */
  events(result: TxResult): { name: string; data: Record<string, unknown> }[] {
    const out: { name: string; data: Record<string, unknown> }[] = [];
    for (const line of result.logs) {
      const m = /^Program data: (.+)$/.exec(line);
      if (!m) continue;
      const ev = this.program.coder.events.decode(m[1]);
      if (ev) out.push(ev);
    }
    return out;
  }
}
