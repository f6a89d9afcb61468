// shared/program/instructions.ts builds instructions without Anchor (the server, the demo seeder and the
// CLI use it). Each builder must produce exactly what Anchor's client builds from the IDL, and the
// program must accept what it builds.
import { Keypair, PublicKey, TransactionInstruction } from '@solana/web3.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { CertificateStatus, IssuerStatus, TrustTier } from '../../shared/program/codec';
import * as ix from '../../shared/program/instructions';
import { ReasonCode } from '../../shared/program/reasons';
import { Attesta, aHash } from './support/attesta';
import { expectError, expectOk } from './support/expect';
import { givenAnchored, givenIssuer, givenRegistry, type GivenIssuer } from './support/given';
import { b58 } from './support/plain';
import { RUNTIMES } from './support/runtimes';

const shape = (i: TransactionInstruction) => ({
  programId: i.programId.toBase58(),
  keys: i.keys.map((k) => ({ pubkey: k.pubkey.toBase58(), isSigner: k.isSigner, isWritable: k.isWritable })),
  data: Buffer.from(i.data).toString('hex'),
});

describe.each(RUNTIMES)('shared/program/instructions [$name]', ({ start }) => {
  let t: Attesta;
  let issuer: GivenIssuer;
  beforeEach(async () => {
    t = await givenRegistry(await start());
    issuer = await givenIssuer(t);
  });
  const key = () => Keypair.generate().publicKey;

  it('every builder is byte for byte the Anchor client\'s instruction', async () => {
    const p = t.programId;
    const [hash, holder, verifier, payer, authority, admin] = [aHash(), key(), key(), key(), key(), key()];
    const pairs: [string, TransactionInstruction, TransactionInstruction][] = [
      ['initialize', ix.initializeIx(p, admin), await t.initializeIx(admin)],
      ['set_verifier', ix.setVerifierIx(p, admin, verifier, true), await t.setVerifierIx({ admin, verifier, enabled: true })],
      ['register_issuer', ix.registerIssuerIx(p, { authority, payer, name: 'Uni', uri: 'uni.edu' }), await t.registerIssuerIx({ authority, payer, name: 'Uni', uri: 'uni.edu' })],
      [
        'set_issuer_status',
        ix.setIssuerStatusIx(p, { authority, admin, status: IssuerStatus.Suspended }),
        await t.setIssuerStatusIx({ issuer: t.issuerPda(authority), status: IssuerStatus.Suspended, admin }),
      ],
      [
        'anchor_certificate',
        ix.anchorCertificateIx(p, { hash, holder, verifier, payer, expiresAt: 77n }),
        await t.anchorCertificateIx({ hash, holder, verifier, payer, expiresAt: 77n }),
      ],
      [
        'issue_certificate',
        ix.issueCertificateIx(p, { hash, holder, authority, payer, expiresAt: -1n }),
        await t.issueCertificateIx({ hash, holder, authority, payer, expiresAt: -1n }),
      ],
      ['request_confirmation', ix.requestConfirmationIx(p, { hash, holder, issuerAuthority: authority }), await t.requestConfirmationIx({ hash, holder, issuerAuthority: authority })],
      ['confirm_certificate', ix.confirmCertificateIx(p, { hash, authority }), await t.confirmCertificateIx({ hash, authority })],
      [
        'record_verification',
        ix.recordVerificationIx(p, { hash, verifier, verified: false, reasonCode: ReasonCode.Policy }),
        await t.recordVerificationIx({ hash, verifier, verified: false, reasonCode: ReasonCode.Policy }),
      ],
      [
        'record_verification (deprecated issuerAuthority ignored)',
        ix.recordVerificationIx(p, { hash, verifier, verified: true, reasonCode: 0, issuerAuthority: authority }),
        await t.recordVerificationIx({ hash, verifier, verified: true }),
      ],
      [
        'revoke_certificate',
        ix.revokeCertificateIx(p, { hash, authority, reasonCode: ReasonCode.RevokedFraud }),
        await t.revokeCertificateIx({ hash, authority, reasonCode: ReasonCode.RevokedFraud }),
      ],
    ];
    for (const [name, ours, anchors] of pairs) expect(shape(ours), name).toEqual(shape(anchors));
    // Every IDL instruction but mint_certificate (shared/program/mint.ts) is covered.
    const covered = new Set(pairs.map(([n]) => n.split(' ')[0]));
    expect(t.program.idl.instructions.map((i) => i.name).filter((n) => !covered.has(n.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)))).toEqual([
      'mintCertificate',
    ]);
  });

  it('the holder asks, the issuer confirms, with the shared builders only', async () => {
    const c = await givenAnchored(t);
    const a = issuer.authority.publicKey;
    expectOk(await t.send(ix.requestConfirmationIx(t.programId, { hash: c.hash, holder: c.holder.publicKey, issuerAuthority: a }), [c.holder]));
    expectOk(await t.send(ix.confirmCertificateIx(t.programId, { hash: c.hash, authority: a }), [issuer.authority]));
    const s = await t.certificateState(c.hash);
    expect({ status: s.status, tier: s.tier, issuer: b58(s.issuer) }).toEqual({ status: CertificateStatus.Verified, tier: TrustTier.IssuerConfirmed, issuer: a.toBase58() });
  });

  it('a caller still passing issuerAuthority to recordVerificationIx gets a platform verdict', async () => {
    const c = await givenAnchored(t);
    const res = await t.send(
      ix.recordVerificationIx(t.programId, { hash: c.hash, verifier: t.verifier.publicKey, verified: true, reasonCode: 0, issuerAuthority: issuer.authority.publicKey }),
      [t.verifier],
    );
    expectOk(res);
    expect(await t.certificateState(c.hash)).toMatchObject({ status: CertificateStatus.Verified, tier: TrustTier.PlatformVerified });
  });

  it('the issuer builder supersedes a squatted record; the program still names its errors', async () => {
    const c = await givenAnchored(t);
    const rightful = key();
    const issue = (authority: PublicKey) => ix.issueCertificateIx(t.programId, { hash: c.hash, holder: rightful, authority, payer: t.rt.payer.publicKey, expiresAt: 0n });
    expectOk(await t.send(issue(issuer.authority.publicKey), [issuer.authority]));
    expect(b58((await t.certificateState(c.hash)).holder)).toBe(rightful.toBase58());
    const other = await givenIssuer(t);
    expectError(await t.send(issue(other.authority.publicKey), [other.authority]), 'HashAlreadyAnchored');
  });
});
