import { Keypair, PublicKey, TransactionInstruction } from '@solana/web3.js';
import { IssuerStatus } from '../../../shared/program/codec';
import { soulboundMintSteps, type SoulboundMintStep } from '../../../shared/program/mint';
import { Attesta, aHash } from './attesta';
import { expectOk } from './expect';
import type { Runtime } from './runtime';

/** Given an initialized registry with an admin and one more platform verifier. */
export async function givenRegistry(rt: Runtime): Promise<Attesta> {
  const t = new Attesta(rt);
  t.admin = await t.funded();
  t.verifier = Keypair.generate();
  expectOk(await t.send(await t.initializeIx(t.admin.publicKey), [t.admin]));
  expectOk(await t.send(await t.setVerifierIx({ admin: t.admin.publicKey, verifier: t.verifier.publicKey, enabled: true }), [t.admin]));
  return t;
}

export interface GivenIssuer {
  authority: Keypair;
  issuer: PublicKey;
}

/** Given a registered issuer, approved unless another status is asked for. */
export async function givenIssuer(t: Attesta, status: IssuerStatus = IssuerStatus.Approved, name = 'Example University'): Promise<GivenIssuer> {
  const authority = Keypair.generate();
  expectOk(await t.send(await t.registerIssuerIx({ authority: authority.publicKey, name, uri: 'https://example.edu' }), [authority]));
  const issuer = t.issuerPda(authority.publicKey);
  if (status !== IssuerStatus.Pending) {
    expectOk(await t.send(await t.setIssuerStatusIx({ issuer, status: IssuerStatus.Approved, admin: t.admin.publicKey }), [t.admin]));
    if (status === IssuerStatus.Suspended) {
      expectOk(await t.send(await t.setIssuerStatusIx({ issuer, status, admin: t.admin.publicKey }), [t.admin]));
    }
  }
  return { authority, issuer };
}

export interface GivenCertificate {
  hash: Uint8Array;
  holder: Keypair;
  certificate: PublicKey;
}

/** Given a certificate anchored by the platform verifier (no issuer). */
export async function givenAnchored(t: Attesta, opts: { holder?: Keypair; expiresAt?: bigint } = {}): Promise<GivenCertificate> {
  const hash = aHash();
  const holder = opts.holder ?? Keypair.generate();
  expectOk(
    await t.send(await t.anchorCertificateIx({ hash, holder: holder.publicKey, verifier: t.verifier.publicKey, expiresAt: opts.expiresAt }), [t.verifier]),
  );
  return { hash, holder, certificate: t.certificatePda(hash) };
}

/** Given a certificate issued by an approved issuer (verified, issuer_confirmed). */
export async function givenIssued(t: Attesta, issuer: GivenIssuer, opts: { expiresAt?: bigint; holder?: Keypair } = {}): Promise<GivenCertificate> {
  const hash = aHash();
  const holder = opts.holder ?? Keypair.generate();
  expectOk(
    await t.send(
      await t.issueCertificateIx({ hash, holder: holder.publicKey, authority: issuer.authority.publicKey, expiresAt: opts.expiresAt }),
      [issuer.authority],
    ),
  );
  return { hash, holder, certificate: t.certificatePda(hash) };
}

/** Given a certificate whose holder asked `issuer` to confirm it (anchored by the platform unless `c` is given). */
export async function givenRequested(t: Attesta, issuer: GivenIssuer, c?: GivenCertificate): Promise<GivenCertificate> {
  const cert = c ?? (await givenAnchored(t));
  expectOk(
    await t.send(await t.requestConfirmationIx({ hash: cert.hash, holder: cert.holder.publicKey, issuerAuthority: issuer.authority.publicKey }), [cert.holder]),
  );
  return cert;
}

/** Given a platform-anchored certificate that `issuer` confirmed at its holder's request. */
export async function givenConfirmed(t: Attesta, issuer: GivenIssuer, opts: { expiresAt?: bigint } = {}): Promise<GivenCertificate> {
  const c = await givenRequested(t, issuer, await givenAnchored(t, opts));
  expectOk(await t.send(await t.confirmCertificateIx({ hash: c.hash, authority: issuer.authority.publicKey }), [issuer.authority]));
  return c;
}

/** Given a platform-verified certificate. */
export async function givenVerified(t: Attesta, opts: { expiresAt?: bigint } = {}): Promise<GivenCertificate> {
  const c = await givenAnchored(t, opts);
  expectOk(await t.send(await t.recordVerificationIx({ hash: c.hash, verifier: t.verifier.publicKey, verified: true }), [t.verifier]));
  return c;
}

export interface MintTx {
  instructions: TransactionInstruction[];
  signers: Keypair[];
  mint: Keypair;
  holderTokenAccount: PublicKey;
  /** Index of our `mint_certificate` instruction in the transaction. */
  programIndex: number;
}

/**
 * The whole soulbound mint transaction from shared/program's builder, optionally with steps left
 * out or swapped for faulty ones.
 */
export function aMintTx(
  t: Attesta,
  c: GivenCertificate,
  opts: {
    title?: string;
    uri?: string;
    mint?: Keypair;
    holder?: Keypair;
    replace?: Partial<Record<SoulboundMintStep, TransactionInstruction | TransactionInstruction[]>>;
    omit?: SoulboundMintStep[];
    /** Build the instructions for this hash instead (a mint made for another certificate). */
    metadataHash?: Uint8Array;
  } = {},
): MintTx {
  const mint = opts.mint ?? Keypair.generate();
  const holder = opts.holder ?? c.holder;
  const built = soulboundMintSteps({
    payer: t.rt.payer.publicKey,
    holder: holder.publicKey,
    mint: mint.publicKey,
    hash: opts.metadataHash ?? c.hash,
    title: opts.title ?? 'BSc Computer Science',
    uri: opts.uri ?? `https://attesta.example/c/${c.certificate.toBase58()}`,
    programId: t.programId,
  });
  const steps = { ...built.steps } as Record<SoulboundMintStep, TransactionInstruction | TransactionInstruction[]>;
  if (opts.metadataHash) {
    // Metadata of another certificate, but our instruction still names this one.
    const own = soulboundMintSteps({ payer: t.rt.payer.publicKey, holder: holder.publicKey, mint: mint.publicKey, hash: c.hash, title: 't', uri: 'u', programId: t.programId });
    steps.mintCertificate = own.steps.mintCertificate;
  }
  Object.assign(steps, opts.replace ?? {});
  for (const k of opts.omit ?? []) delete steps[k];
  const instructions: TransactionInstruction[] = [];
  let programIndex = -1;
  for (const [name, ix] of Object.entries(steps)) {
    if (name === 'mintCertificate') programIndex = instructions.length + (Array.isArray(ix) ? ix.length - 1 : 0);
    instructions.push(...(Array.isArray(ix) ? ix : [ix]));
  }
  return { instructions, signers: [mint, holder], mint, holderTokenAccount: built.holderTokenAccount, programIndex };
}

/** Given a verified certificate minted as a soulbound NFT. */
export async function givenMinted(t: Attesta): Promise<GivenCertificate & { mint: Keypair; holderTokenAccount: PublicKey }> {
  const c = await givenVerified(t);
  const tx = aMintTx(t, c);
  expectOk(await t.rt.send(tx.instructions, tx.signers));
  return { ...c, mint: tx.mint, holderTokenAccount: tx.holderTokenAccount };
}
