/**
 * The embedded chain keeps a bounded working set in LiteSVM (issue 15): accounts are loaded from
 * `chain_account` when a transaction names them and evicted least recently used. Here the working set is
 * 8 accounts while 40 certificates are anchored, so nearly every record is evicted and loaded back: the
 * program must still see every account it wrote (a duplicate is refused, a verification lands on the
 * record it names), reads must agree with the database, and a restart must answer the same.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Keypair, type PublicKey } from '@solana/web3.js';
import { CERTIFICATE_DISCRIMINATOR, CertificateStatus, decodeCertificate } from '../../shared/program/codec';
import { CERTIFICATES_PROGRAM_ID } from '../../shared/program/ids';
import { openDatabase, type Db } from '../src/db';
import { EmbeddedChain } from '../src/services/chain/embedded';
import { loadOrCreateOperator } from '../src/services/chain/operator';
import { testConfig, tmpDataDir } from './helpers';

const WORKING_SET = 8;
const N = 40;
const hashOf = (k: number) => new Uint8Array(createHash('sha256').update(`working-set:${k}`).digest());

async function openChain(dir: string, workingSet: number) {
  const config = await testConfig(dir);
  if (config.chain.mode !== 'embedded') throw new Error('the embedded chain is the test default');
  const { db } = await openDatabase(config.database);
  const chain = await EmbeddedChain.start({
    db,
    programId: CERTIFICATES_PROGRAM_ID,
    programPath: config.chain.programPath,
    operator: loadOrCreateOperator(path.join(dir, 'operator.json')),
    sqliteFile: config.database.kind === 'sqlite' ? config.database.file : undefined,
    workingSet,
  });
  await chain.ensureRegistry();
  return { db, chain };
}

describe('embedded chain: a bounded working set', () => {
  const dir = tmpDataDir();
  const holders: PublicKey[] = Array.from({ length: N }, () => Keypair.generate().publicKey);
  const opened: { db: Db; chain: EmbeddedChain }[] = [];
  afterAll(async () => {
    for (const o of opened) {
      await o.chain.close();
      await o.db.destroy();
    }
  });

  it(`anchors ${N} certificates with ${WORKING_SET} accounts resident; evicted records are loaded back before a transaction names them`, async () => {
    const o = await openChain(dir, WORKING_SET);
    opened.push(o);
    for (let k = 0; k < N; k++) await o.chain.anchorCertificate({ hash: hashOf(k), holder: holders[k] }, { kind: 'anchor' });
    expect(o.chain.workingSetStats().resident).toBeLessThanOrEqual(WORKING_SET);

    // The first records were evicted long ago: the program must see them (a duplicate is refused).
    await expect(o.chain.anchorCertificate({ hash: hashOf(0), holder: holders[1] }, { kind: 'anchor' })).rejects.toThrow(/HashAlreadyAnchored|already/i);
    // A verification lands on the record it names, loaded back from its row.
    for (let k = 0; k < N; k += 2) await o.chain.recordVerification({ hash: hashOf(k), verified: true, reasonCode: 0 }, { kind: 'record_verification' });
    expect(o.chain.workingSetStats().resident).toBeLessThanOrEqual(WORKING_SET);

    for (let k = 0; k < N; k++) {
      const rec = await o.chain.readCertificate(hashOf(k));
      expect(rec?.holder.toBase58()).toBe(holders[k].toBase58());
      expect(rec?.status).toBe(k % 2 === 0 ? CertificateStatus.Verified : CertificateStatus.Pending);
    }
    // Every record's row holds what LiteSVM computed.
    const rows = await o.db.selectFrom('chain_account').select('pubkey').where('owner', '=', CERTIFICATES_PROGRAM_ID.toBase58()).execute();
    expect(rows.length).toBeGreaterThanOrEqual(N);
  });

  it('after a restart the same records read the same, and the working set starts empty', async () => {
    const first = opened.pop()!;
    const before = await Promise.all(Array.from({ length: N }, (_, k) => first.chain.readCertificate(hashOf(k))));
    await first.chain.close();
    await first.db.destroy();

    const o = await openChain(dir, WORKING_SET);
    opened.push(o);
    expect(o.chain.workingSetStats().resident).toBeLessThanOrEqual(1); // the operator only
    for (let k = 0; k < N; k++) expect(await o.chain.readCertificate(hashOf(k))).toEqual(before[k]);
    // And a transaction on an account never loaded since the restart sees its state.
    await o.chain.recordVerification({ hash: hashOf(1), verified: false, reasonCode: 1 }, { kind: 'record_verification' });
    expect((await o.chain.readCertificate(hashOf(1)))?.status).toBe(CertificateStatus.Rejected);
  });

  // JSON-RPC getProgramAccounts reads an owner's accounts from the database a page at a time; the
  // accounts the chain is ahead on (written in a caller's DB transaction not committed yet) are read from
  // LiteSVM instead and merged in key order, each once, whatever their committed row says (or lacks).
  it('a scan while a caller’s DB transaction is open has the accounts the chain is ahead on, at their state, in key order, once each', async () => {
    const o = await openChain(tmpDataDir(), WORKING_SET);
    opened.push(o);
    const { db, chain } = o;
    // As getProgramAccounts does: what the database checked is checked again on what comes back.
    const isRecord = (d: Uint8Array) => CERTIFICATE_DISCRIMINATOR.every((b, i) => d[i] === b);
    const scan = async () => {
      const out = [];
      for await (const a of chain.scanOwnedBy(CERTIFICATES_PROGRAM_ID, { bytes: [{ offset: 0, bytes: CERTIFICATE_DISCRIMINATOR }] })) if (isRecord(a.data)) out.push(a);
      return out;
    };
    for (let k = 0; k < 12; k++) await chain.anchorCertificate({ hash: hashOf(100 + k), holder: holders[k] }, { kind: 'anchor' });
    const before = await scan();
    expect(before).toHaveLength(12);
    const keys = before.map((a) => a.pubkey);
    expect(keys).toEqual([...keys].sort((a, b) => (a < b ? -1 : 1)));

    await db.transaction().execute(async (trx) => {
      await chain.anchorCertificate({ hash: hashOf(200), holder: holders[20] }, { kind: 'anchor', db: trx });
      await chain.recordVerification({ hash: hashOf(105), verified: true, reasonCode: 0 }, { kind: 'record_verification', db: trx });
      const added = chain.certificateAddress(hashOf(200)).toBase58();
      const verified = chain.certificateAddress(hashOf(105)).toBase58();
      // The new record has no committed row yet (the scan's reader sees committed rows only).
      const during = await scan();
      expect(during.map((a) => a.pubkey)).toEqual([...keys, added].sort((a, b) => (a < b ? -1 : 1)));
      expect(decodeCertificate(during.find((a) => a.pubkey === verified)!.data).status).toBe(CertificateStatus.Verified);
    });
    expect(await scan()).toHaveLength(13);
  });
});
