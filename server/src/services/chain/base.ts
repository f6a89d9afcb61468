import { createHash } from 'node:crypto';
import { type Keypair, PublicKey, type Signer, Transaction, type TransactionInstruction } from '@solana/web3.js';
import {
  decodeCertificate,
  decodeIssuer,
  decodeRegistry,
  ISSUER_DISCRIMINATOR,
  type CertificateAccount,
  type IssuerAccount,
  type RegistryAccount,
} from '../../../../shared/program/codec';
import { CERTIFICATE_SEED, certificatePda, issuerPda, registryPda } from '../../../../shared/program/pda';
import * as ix from '../../../../shared/program/instructions';
import type { AccountSnapshot, ChainReceipt, ChainService, IssuerEntry, LandedListener, SigningBlockhash, TxOptions } from './types';

type AccountGetter = (pubkey: PublicKey) => Promise<AccountSnapshot | null> | AccountSnapshot | null;

/** Program-level operations shared by both chains; subclasses only move bytes. */
export abstract class BaseChain implements ChainService {
  abstract readonly mode: 'embedded' | 'rpc';
  constructor(
    public readonly programId: PublicKey,
    protected readonly operatorKey: Keypair,
  ) {}
  get operator() {
    return this.operatorKey.publicKey;
  }
  /** The program id in base58, encoded once (every account read compares its owner with it). */
  private programKey?: string;
  protected get programKeyBase58(): string {
    return (this.programKey ??= this.programId.toBase58());
  }

  abstract now(): Promise<bigint>;
  stateVersion(): number | null {
    return null;
  }
  abstract sendTransaction(tx: Transaction, signers: Signer[], o: TxOptions): Promise<ChainReceipt>;
  abstract sendSignedTransaction(tx: Transaction, o: TxOptions): Promise<ChainReceipt>;
  abstract simulate(tx: Transaction, signers: Signer[]): Promise<{ ok: boolean; logs: string[]; error: string | null; computeUnits: number | null }>;
  abstract getAccountInfo(pubkey: PublicKey): Promise<AccountSnapshot | null>;
  abstract latestBlockhash(): Promise<string>;
  abstract signingBlockhash(): Promise<SigningBlockhash>;
  abstract blockhashExpired(a: { expiresAt: number; lastValidBlockHeight: number | null }): Promise<boolean>;
  abstract close(): Promise<void>;

  /** Nothing lands here by default (an RPC chain); the embedded chain overrides it. */
  onLanded(_listener: LandedListener): () => void {
    return () => undefined;
  }
  protected abstract programAccounts(discriminator: Uint8Array): Promise<{ pubkey: PublicKey; data: Uint8Array }[]>;

  // Derived addresses are kept by shared/program/pda.ts (bounded): deriving one costs a curve check per bump.
  certificateAddress(hash: Uint8Array): PublicKey {
    return certificatePda(hash, this.programId)[0];
  }
  issuerAddress(authority: PublicKey): PublicKey {
    return issuerPda(authority, this.programId)[0];
  }

  partialSignAsOperator(tx: Transaction) {
    tx.partialSign(this.operatorKey);
  }

  protected send(ixs: TransactionInstruction[], signers: Signer[], o: TxOptions) {
    return this.sendTransaction(new Transaction().add(...ixs), signers, o);
  }

  /** Creates the registry (operator = admin and verifier 0) when it does not exist yet. */
  async ensureRegistry(): Promise<RegistryAccount> {
    const existing = await this.readRegistry();
    if (existing) return existing;
    await this.send([ix.initializeIx(this.programId, this.operator)], [], { kind: 'initialize' });
    const reg = await this.readRegistry();
    if (!reg) throw new Error('registry initialisation did not create the registry account');
    return reg;
  }

  anchorCertificate(p: { hash: Uint8Array; holder: PublicKey; expiresAt?: bigint }, o: TxOptions) {
    return this.send(
      [ix.anchorCertificateIx(this.programId, { hash: p.hash, holder: p.holder, verifier: this.operator, payer: this.operator, expiresAt: p.expiresAt ?? 0n })],
      [],
      o,
    );
  }

  recordVerification(p: { hash: Uint8Array; verified: boolean; reasonCode: number }, o: TxOptions) {
    return this.send([ix.recordVerificationIx(this.programId, { ...p, verifier: this.operator })], [], o);
  }

  registerIssuer(p: { authority: Keypair; name: string; uri: string }, o: TxOptions) {
    return this.send([ix.registerIssuerIx(this.programId, { authority: p.authority.publicKey, payer: this.operator, name: p.name, uri: p.uri })], [p.authority], o);
  }

  setIssuerStatus(p: { authority: PublicKey; status: number }, o: TxOptions) {
    return this.send([ix.setIssuerStatusIx(this.programId, { authority: p.authority, admin: this.operator, status: p.status })], [], o);
  }

  issueCertificate(p: { authority: Keypair; hash: Uint8Array; holder: PublicKey; expiresAt?: bigint }, o: TxOptions) {
    return this.send(
      [ix.issueCertificateIx(this.programId, { hash: p.hash, holder: p.holder, authority: p.authority.publicKey, payer: this.operator, expiresAt: p.expiresAt ?? 0n })],
      [p.authority],
      o,
    );
  }

  revokeCertificate(p: { hash: Uint8Array; reasonCode: number }, o: TxOptions) {
    return this.send([ix.revokeCertificateIx(this.programId, { hash: p.hash, authority: this.operator, reasonCode: p.reasonCode })], [], o);
  }

  async readCertificate(hash: Uint8Array): Promise<CertificateAccount | null> {
    return (await this.readCertificateRecord(hash))?.record ?? null;
  }

  /**
   * The certificate record of `hash` with its address. `stored`: the address a certificate row keeps
   * for it (record_address). It is read first and used only when it proves to be this hash's record:
   * a certificate account of the program whose bump, with the hash, gives that very address (one
   * SHA-256, as the program derived it). Otherwise, or when no record is there, the address is derived
   * (findProgramAddress: a SHA-256 and a curve check per bump tried, the cold verify's largest cost).
   */
  async readCertificateRecord(hash: Uint8Array, stored?: string | null): Promise<{ address: PublicKey; record: CertificateAccount } | null> {
    return this.certificateRecordVia((pk) => this.getAccountInfo(pk), hash, stored);
  }

  /** readCertificateRecord over the accounts `get` reads (this chain's, or the rows it committed). */
  protected async certificateRecordVia(get: AccountGetter, hash: Uint8Array, stored?: string | null): Promise<{ address: PublicKey; record: CertificateAccount } | null> {
    if (stored) {
      let address: PublicKey | null = null;
      try {
        address = new PublicKey(stored);
      } catch {
        /* not an address: derive it */
      }
      const acc = address && (await get(address));
      let record: CertificateAccount | null = null;
      try {
        record = this.certificateAt(acc);
      } catch {
        /* not a certificate account: derive the address */
      }
      if (address && record && this.isCertificateAddress(address, hash, record.bump)) return { address, record };
    }
    const address = this.certificateAddress(hash);
    const record = this.certificateAt(await get(address));
    return record ? { address, record } : null;
  }

  private certificateAt(acc: AccountSnapshot | null): CertificateAccount | null {
    return acc && acc.owner === this.programKeyBase58 && acc.data.length > 0 ? decodeCertificate(acc.data) : null;
  }

  /** Whether `address` is the program address of seeds ["certificate", hash] with `bump` (createProgramAddress without its curve check). */
  private isCertificateAddress(address: PublicKey, hash: Uint8Array, bump: number): boolean {
    const h = createHash('sha256');
    h.update(CERTIFICATE_SEED).update(hash).update(Uint8Array.of(bump)).update(this.programId.toBytes()).update('ProgramDerivedAddress');
    return h.digest().equals(address.toBuffer());
  }

  async readIssuer(authority: PublicKey): Promise<IssuerAccount | null> {
    return this.issuerVia((pk) => this.getAccountInfo(pk), authority);
  }

  protected async issuerVia(get: AccountGetter, authority: PublicKey): Promise<IssuerAccount | null> {
    const acc = await get(this.issuerAddress(authority));
    return acc && acc.owner === this.programKeyBase58 && acc.data.length > 0 ? decodeIssuer(acc.data) : null;
  }

  async readRegistry(): Promise<RegistryAccount | null> {
    const acc = await this.getAccountInfo(registryPda(this.programId)[0]);
    return acc && acc.owner === this.programKeyBase58 && acc.data.length > 0 ? decodeRegistry(acc.data) : null;
  }

  async listIssuers(): Promise<IssuerEntry[]> {
    const out: IssuerEntry[] = [];
    for (const a of await this.programAccounts(ISSUER_DISCRIMINATOR)) {
      try {
        out.push({ ...decodeIssuer(a.data), address: a.pubkey });
      } catch {
        /* not an issuer account */
      }
    }
    return out;
  }
}
