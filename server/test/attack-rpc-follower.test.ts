// Attack on the RPC-chain follower (services/chain-sync pollRpc): with SOLANA_RPC_URL the server learns
// about revocations by polling the program's signatures and matching each transaction's accounts to
// its rows. It only looks at `transaction.message.staticAccountKeys`, so a version-0 transaction that
// loads the certificate record through an address lookup table (a normal, cheaper way to send a
// transaction on every real cluster) changes the record without the row ever following.
//
// The embedded /rpc refuses v0 transactions, so the RPC node is stood in for by a Connection whose
// answers have the exact shapes web3.js returns from a validator (a VersionedTransaction compiled with
// a lookup table, meta.loadedAddresses); the revocation itself really happens on the embedded chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressLookupTableAccount, Keypair, MessageV0, PublicKey, VersionedTransaction, type Connection } from '@solana/web3.js';
import { CERTIFICATES_PROGRAM_ID } from '../../shared/program/ids';
import { requestConfirmationIx, revokeCertificateIx } from '../../shared/program/instructions';
import { ReasonCode } from '../../shared/program/reasons';
import type { Server } from '../src/app';
import { ChainSync } from '../src/services/chain-sync';

import { INSTITUTION, fund, holderWithCertificate, send, startWorld, type World } from './attack-support/world';

const programId = CERTIFICATES_PROGRAM_ID;
let server: Server;
let conn: Connection;
let world: World;
const institution = Keypair.generate();

beforeAll(async () => {
  world = await startWorld(institution);
  ({ server, conn } = world);
}, 120_000);

afterAll(() => world?.close());

const fakeSig = () => Buffer.from(Keypair.generate().secretKey).toString('hex').slice(0, 40) + 'x';

describe('attack: a revocation through an address lookup table', () => {
  // Proves: pollRpc() reconciles rows whose record is in staticAccountKeys only; accounts loaded from a
  // lookup table (meta.loadedAddresses.writable) are ignored, so a revocation sent as a v0 transaction
  // never reaches the row: the holder's page says verified and /files serves the revoked file.
  it('a server on an RPC chain follows a revocation whose certificate account came from a lookup table', async () => {
    const h = await holderWithCertificate(server, 'Certificate in Welding');
    expect(h.row.verification_status).toBe('verified');
    await fund(conn, h.holder);
    await send(conn, h.holder, requestConfirmationIx(programId, { hash: h.hash, holder: h.holder.publicKey, issuerAuthority: institution.publicKey }));
    await server.chainSync.stop(); // the embedded follower stands aside: the RPC follower below is under test

    const signatures: { signature: string; err: null; slot: number }[] = [{ signature: fakeSig(), err: null, slot: 1 }];
    const txs = new Map<string, unknown>();
    const rpc = {
      async getSignaturesForAddress(_addr: PublicKey, o: { until?: string }) {
        const i = o.until ? signatures.findIndex((s) => s.signature === o.until) : signatures.length;
        return signatures.slice(0, i === -1 ? signatures.length : i);
      },
      async getTransaction(sig: string) {
        return txs.get(sig) ?? null;
      },
    } as unknown as Connection;
    const chain = new Proxy(server.services.chain, { get: (t, p, r) => (p === 'mode' ? 'rpc' : Reflect.get(t, p, r)) });
    const follower = new ChainSync({ chain, db: server.services.db, bus: server.services.bus }, { intervalMs: 3_600_000, connection: rpc });
    await follower.start(); // first poll: cursor set at the newest signature

    // The institution revokes on chain; its wallet sent the instruction as a v0 transaction whose
    // certificate account is in a lookup table.
    const ix = revokeCertificateIx(programId, { hash: h.hash, authority: institution.publicKey, reasonCode: ReasonCode.RevokedFraud });
    const sig = await send(conn, institution, ix);
    const record = server.services.chain.certificateAddress(h.hash);
    const table = new AddressLookupTableAccount({ key: Keypair.generate().publicKey, state: { deactivationSlot: BigInt('18446744073709551615'), lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0, authority: institution.publicKey, addresses: [record] } });
    const message = MessageV0.compile({ payerKey: institution.publicKey, instructions: [ix], recentBlockhash: PublicKey.default.toBase58(), addressLookupTableAccounts: [table] });
    expect(message.staticAccountKeys.map((k) => k.toBase58())).not.toContain(record.toBase58()); // the record is loaded, not static
    txs.set(sig, {
      slot: 2,
      blockTime: Math.floor(Date.now() / 1000),
      version: 0,
      transaction: new VersionedTransaction(message),
      meta: { err: null, fee: 5000, preBalances: [], postBalances: [], logMessages: [], loadedAddresses: { writable: [record], readonly: [] } },
    });
    signatures.unshift({ signature: sig, err: null, slot: 2 });
    expect((await server.services.chain.readCertificate(h.hash))?.status).toBe(3); // revoked on chain

    await (follower as unknown as { pollRpc(): Promise<void> }).pollRpc();
    await follower.stop();
    const row = await server.services.db.selectFrom('certificate').select(['verification_status']).where('id', '=', h.id).executeTakeFirstOrThrow();
    expect(row.verification_status).toBe('revoked');
    expect((await fetch(`${server.url}/files/certificates/${h.id}`)).status).toBe(404);
  });

  // Proves: pollRpc() skips a signature whose getTransaction answers null (`if (!tx ...) continue`) and
  // still moves its cursor past it. RPC providers that balance over several nodes routinely answer null
  // for a transaction a moment older than the signature list that named it; the revocation it carried
  // is then never applied, whatever later polls see.
  it('a revocation whose transaction the RPC could not return yet is applied at a later poll', async () => {
    const h = await holderWithCertificate(server, 'Diploma in Nursing');
    expect(h.row.verification_status).toBe('verified');
    await fund(conn, h.holder);
    await send(conn, h.holder, requestConfirmationIx(programId, { hash: h.hash, holder: h.holder.publicKey, issuerAuthority: institution.publicKey }));
    await server.chainSync.stop();

    const signatures: { signature: string; err: null; slot: number }[] = [{ signature: fakeSig(), err: null, slot: 1 }];
    const txs = new Map<string, unknown>();
    let lagging = true;
    const rpc = {
      async getSignaturesForAddress(_addr: PublicKey, o: { until?: string }) {
        const i = o.until ? signatures.findIndex((s) => s.signature === o.until) : signatures.length;
        return signatures.slice(0, i === -1 ? signatures.length : i);
      },
      async getTransaction(sig: string) {
        if (lagging) return null; // this node has not got the transaction yet
        return txs.get(sig) ?? null;
      },
    } as unknown as Connection;
    const chain = new Proxy(server.services.chain, { get: (t, p, r) => (p === 'mode' ? 'rpc' : Reflect.get(t, p, r)) });
    const follower = new ChainSync({ chain, db: server.services.db, bus: server.services.bus }, { intervalMs: 3_600_000, connection: rpc });
    await follower.start();

    const ix = revokeCertificateIx(programId, { hash: h.hash, authority: institution.publicKey, reasonCode: ReasonCode.RevokedFraud });
    const sig = await send(conn, institution, ix);
    const message = MessageV0.compile({ payerKey: institution.publicKey, instructions: [ix], recentBlockhash: PublicKey.default.toBase58() });
    txs.set(sig, { slot: 2, blockTime: null, version: 0, transaction: new VersionedTransaction(message), meta: { err: null, fee: 5000, preBalances: [], postBalances: [], logMessages: [], loadedAddresses: { writable: [], readonly: [] } } });
    signatures.unshift({ signature: sig, err: null, slot: 2 });

    const poll = () => (follower as unknown as { pollRpc(): Promise<void> }).pollRpc();
    await poll(); // the node lags: null
    lagging = false;
    await poll(); // a later poll, the transaction is there now
    await follower.stop();
    const row = await server.services.db.selectFrom('certificate').select(['verification_status']).where('id', '=', h.id).executeTakeFirstOrThrow();
    expect(row.verification_status).toBe('revoked');
  });
});
