// shared/program/events.ts decodes the events of request_confirmation and of a supersede without
// Anchor. What the program logs must decode to the same values as with Anchor's coder.
import { Keypair } from '@solana/web3.js';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  certificateEventsFromLogs,
  decodeCertificateEvent,
  decodeCertificateSuperseded,
  decodeConfirmationRequested,
  CERTIFICATE_SUPERSEDED_DISCRIMINATOR,
  CONFIRMATION_REQUESTED_DISCRIMINATOR,
} from '../../shared/program/events';
import { CERTIFICATES_PROGRAM_ID } from '../../shared/program/ids';
import { Attesta } from './support/attesta';
import { expectOk } from './support/expect';
import { givenAnchored, givenIssuer, givenRegistry, type GivenIssuer } from './support/given';
import { plain } from './support/plain';
import { RUNTIMES } from './support/runtimes';
import type { TxResult } from './support/runtime';

/** Our program's `Program data:` payloads of a transaction. */
const dataLines = (res: TxResult) => res.logs.flatMap((l) => /^Program data: (.+)$/.exec(l)?.[1] ?? []).map((b) => new Uint8Array(Buffer.from(b, 'base64')));

describe.each(RUNTIMES)('shared/program/events [$name]', ({ start }) => {
  let t: Attesta;
  let issuer: GivenIssuer;
  beforeEach(async () => {
    t = await givenRegistry(await start());
    issuer = await givenIssuer(t);
  });

  it('ConfirmationRequested: the logged bytes decode to what Anchor decodes', async () => {
    const c = await givenAnchored(t);
    const res = await t.send(await t.requestConfirmationIx({ hash: c.hash, holder: c.holder.publicKey, issuerAuthority: issuer.authority.publicKey }), [c.holder]);
    expectOk(res);
    const [bytes] = dataLines(res);
    const ours = decodeConfirmationRequested(bytes)!;
    expect(plain(ours)).toEqual(plain(t.events(res)[0].data));
    expect(plain(ours)).toEqual({
      certificate: c.certificate.toBase58(),
      hash: Array.from(c.hash),
      holder: c.holder.publicKey.toBase58(),
      issuer: issuer.authority.publicKey.toBase58(),
    });
    expect(plain(certificateEventsFromLogs(res.logs, t.programId))).toEqual([{ name: 'ConfirmationRequested', data: plain(ours) }]);
  });

  it('CertificateSuperseded: decoded like Anchor, and picked out of the logs before CertificateAnchored', async () => {
    const squatter = Keypair.generate();
    const c = await givenAnchored(t, { holder: squatter });
    const holder = Keypair.generate();
    const res = await t.send(await t.issueCertificateIx({ hash: c.hash, holder: holder.publicKey, authority: issuer.authority.publicKey }), [issuer.authority]);
    expectOk(res);
    const [superseded, anchored] = dataLines(res);
    const ours = decodeCertificateSuperseded(superseded)!;
    expect(plain(ours)).toEqual(plain(t.events(res)[0].data));
    expect(plain(ours)).toEqual({
      certificate: c.certificate.toBase58(),
      hash: Array.from(c.hash),
      previousHolder: squatter.publicKey.toBase58(),
      holder: holder.publicKey.toBase58(),
      issuer: issuer.authority.publicKey.toBase58(),
    });
    // CertificateAnchored is not one of these decoders' events.
    expect(decodeCertificateEvent(anchored)).toBeNull();
    expect(certificateEventsFromLogs(res.logs, t.programId).map((e) => e.name)).toEqual(['CertificateSuperseded']);
  });
});

describe('shared/program/events decoders', () => {
  it('refuses other bytes: another discriminator, a short or a long body', () => {
    const body = new Uint8Array(8 + 32 * 4);
    body.set(CONFIRMATION_REQUESTED_DISCRIMINATOR);
    expect(decodeConfirmationRequested(body)).not.toBeNull();
    expect(decodeConfirmationRequested(body.subarray(0, body.length - 1))).toBeNull();
    expect(decodeConfirmationRequested(new Uint8Array([...body, 0]))).toBeNull();
    expect(decodeCertificateSuperseded(body)).toBeNull();
    const superseded = new Uint8Array(8 + 32 * 5);
    superseded.set(CERTIFICATE_SUPERSEDED_DISCRIMINATOR);
    expect(decodeCertificateEvent(superseded)?.name).toBe('CertificateSuperseded');
    expect(decodeConfirmationRequested(superseded)).toBeNull();
  });

  it('with a program id, ignores data logged by another program', () => {
    const body = new Uint8Array(8 + 32 * 4);
    body.set(CONFIRMATION_REQUESTED_DISCRIMINATOR);
    const data = `Program data: ${Buffer.from(body).toString('base64')}`;
    const other = Keypair.generate().publicKey.toBase58();
    const ours = CERTIFICATES_PROGRAM_ID.toBase58();
    const logs = [`Program ${ours} invoke [1]`, `Program ${other} invoke [2]`, data, `Program ${other} success`, data, `Program ${ours} success`];
    expect(certificateEventsFromLogs(logs, CERTIFICATES_PROGRAM_ID)).toHaveLength(1);
    expect(certificateEventsFromLogs(logs)).toHaveLength(2);
  });
});
