import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Keypair, LAMPORTS_PER_SOL, type PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { DeleteQueryNode, type KyselyPlugin } from 'kysely';
import { openDatabase, type Db } from '../src/db';
import { createChain, ChainError, type ChainService } from '../src/services/chain';
import { BLOCKHASH_VALID_MS } from '../src/services/chain/embedded';
import { CertificateStatus } from '../../shared/program/codec';
import { testConfig, tmpDataDir } from './helpers';
import { testDbKind } from './pg/database';

let dir: string;
let db: Db;
let chain: ChainService;
beforeAll(async () => {
  dir = tmpDataDir();
  const config = await testConfig(dir);
  ({ db } = await openDatabase(config.database));
  chain = await createChain(config, db);
});
afterAll(async () => {
  await chain.close(); // before the database: a write in a caller's transaction is checked a little later
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('embedded chain', () => {
  it('initialises the registry with the operator as admin and verifier', async () => {
    const reg = await chain.readRegistry();
    expect(reg?.admin.equals(chain.operator)).toBe(true);
    expect(reg?.verifiers.map((v) => v.toBase58())).toEqual([chain.operator.toBase58()]);
  });

  it('refuses a second anchor of the same hash with the program error, and persists accounts', async () => {
    const hash = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
    const holder = Keypair.generate().publicKey;
    const r = await chain.anchorCertificate({ hash, holder }, { kind: 'anchor_certificate' });
    expect(r.signature).toBeTruthy();
    const row = await db.selectFrom('chain_account').selectAll().where('pubkey', '=', chain.certificateAddress(hash).toBase58()).executeTakeFirst();
    expect(row?.owner).toBe(chain.programId.toBase58());
    const err = await chain.anchorCertificate({ hash, holder: Keypair.generate().publicKey }, { kind: 'anchor_certificate' }).catch((e) => e);
    expect(err).toBeInstanceOf(ChainError);
    expect((err as ChainError).errorName).toBe('HashAlreadyAnchored');
    expect((err as ChainError).code).toBe(6040);
    expect((await chain.readCertificate(hash))?.holder.equals(holder)).toBe(true);

    // Rejected twice with the same reason (Try Again): identical instructions still get distinct signatures.
    const a = await chain.recordVerification({ hash, verified: false, reasonCode: 2 }, { kind: 'record_verification' });
    const b = await chain.recordVerification({ hash, verified: false, reasonCode: 2 }, { kind: 'record_verification' });
    expect(a.signature).not.toBe(b.signature);
    await chain.recordVerification({ hash, verified: true, reasonCode: 0 }, { kind: 'record_verification' });
    expect((await chain.readCertificate(hash))?.status).toBe(CertificateStatus.Verified);
    const again = await chain.recordVerification({ hash, verified: true, reasonCode: 0 }, { kind: 'record_verification' }).catch((e) => e);
    expect((again as ChainError).errorName).toBe('AlreadyVerified');
  });

  it('reads a record at a stored address only when it is that hash\'s record, and derives the address otherwise', async () => {
    const [a, b] = [41, 42].map((k) => Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + k) % 256));
    const holder = Keypair.generate().publicKey;
    for (const hash of [a, b]) await chain.anchorCertificate({ hash, holder }, { kind: 'anchor_certificate' });
    const [addrA, addrB] = [a, b].map((h) => chain.certificateAddress(h).toBase58());
    const asStored = await chain.readCertificateRecord(a, addrA);
    expect(asStored?.address.toBase58()).toBe(addrA);
    expect(asStored?.record).toEqual(await chain.readCertificate(a));
    // Another certificate's address (a row pointing at the wrong record), another program's account,
    // something that is no address at all: the record of `a` at its derived address, every time.
    for (const stored of [addrB, chain.operator.toBase58(), chain.programId.toBase58(), 'not-an-address', '', null]) {
      const r = await chain.readCertificateRecord(a, stored);
      expect(r?.address.toBase58()).toBe(addrA);
      expect(r?.record.holder.equals(holder)).toBe(true);
    }
    // A hash that was never anchored: nothing, whatever address is stored for it.
    expect(await chain.readCertificateRecord(new Uint8Array(32).fill(9), addrA)).toBeNull();
  });

  it('sends a transaction co-signed by another key (wallet flow) on a blockhash handed out earlier', async () => {
    const wallet = Keypair.generate();
    const to = Keypair.generate().publicKey;
    // Fund the wallet through the operator.
    await chain.sendTransaction(new Transaction().add(SystemProgram.transfer({ fromPubkey: chain.operator, toPubkey: wallet.publicKey, lamports: LAMPORTS_PER_SOL })), [], { kind: 'test' });
    const blockhash = await chain.latestBlockhash();
    const tx = new Transaction({ feePayer: chain.operator, recentBlockhash: blockhash }).add(SystemProgram.transfer({ fromPubkey: wallet.publicKey, toPubkey: to, lamports: 10_000_000 }));
    // Another transaction lands while the wallet is signing.
    await chain.anchorCertificate({ hash: Uint8Array.from({ length: 32 }, () => 9), holder: wallet.publicKey }, { kind: 'anchor_certificate' });
    tx.partialSign(wallet);
    chain.partialSignAsOperator(tx);
    const r = await chain.sendSignedTransaction(tx, { kind: 'transfer' });
    expect(r.signature).toBeTruthy();
    expect((await chain.getAccountInfo(to))?.lamports).toBe(10_000_000n);
  });

  it('persists every account a transaction wrote, and refuses one a signer has not signed before it runs', async () => {
    const [a, b] = [Keypair.generate(), Keypair.generate()];
    // One transaction writing three accounts (the operator, a, b): all three rows as LiteSVM has them.
    await chain.sendTransaction(
      new Transaction().add(
        SystemProgram.transfer({ fromPubkey: chain.operator, toPubkey: a.publicKey, lamports: LAMPORTS_PER_SOL }),
        SystemProgram.transfer({ fromPubkey: chain.operator, toPubkey: b.publicKey, lamports: 2 * LAMPORTS_PER_SOL }),
      ),
      [],
      { kind: 'test' },
    );
    const lamportsRow = async (k: { toBase58(): string }) =>
      (await db.selectFrom('chain_account').select('lamports').where('pubkey', '=', k.toBase58()).executeTakeFirst())?.lamports;
    expect(await lamportsRow(a.publicKey)).toBe(String(LAMPORTS_PER_SOL));
    expect(await lamportsRow(b.publicKey)).toBe(String(2 * LAMPORTS_PER_SOL));
    expect(await lamportsRow(chain.operator)).toBe(String((await chain.getAccountInfo(chain.operator))!.lamports));

    // A wallet transfer with the operator's signature only: `a` never signed it.
    const tx = new Transaction({ feePayer: chain.operator, recentBlockhash: await chain.latestBlockhash() }).add(
      SystemProgram.transfer({ fromPubkey: a.publicKey, toPubkey: b.publicKey, lamports: 1_000 }),
    );
    chain.partialSignAsOperator(tx);
    const transactions = async () => Number((await db.selectFrom('chain_transaction').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await transactions();
    await expect(chain.sendSignedTransaction(tx, { kind: 'transfer' })).rejects.toThrow(`Transaction is missing signatures for addresses: ${a.publicKey.toBase58()}`);
    // Simulated, the same answer (not LiteSVM's bare signature failure).
    const unsigned = new Transaction().add(SystemProgram.transfer({ fromPubkey: a.publicKey, toPubkey: b.publicKey, lamports: 1_000 }));
    await expect(chain.simulate(unsigned, [])).rejects.toThrow(`Transaction is missing signatures for addresses: ${a.publicKey.toBase58()}`);
    expect(await transactions()).toBe(before);
    expect((await chain.getAccountInfo(a.publicKey))?.lamports).toBe(BigInt(LAMPORTS_PER_SOL));
    expect(await lamportsRow(b.publicKey)).toBe(String(2 * LAMPORTS_PER_SOL));
  });

  // Two transactions writing one account, the second committed while the first's accounts are being
  // written: the first must not then store the copy it read before the second ran (the account would
  // read as before the second in the database, and after a restart in LiteSVM too). PostgreSQL only: a
  // connection each; SQLite's one connection makes the second wait for the first's transaction.
  it.runIf(testDbKind() === 'postgres')('never writes an account back as it was before a transaction that committed meanwhile', async () => {
    const shared = Keypair.generate().publicKey;
    const leaving = Keypair.generate();
    const pay = (to: PublicKey, lamports: number) =>
      chain.sendTransaction(new Transaction().add(SystemProgram.transfer({ fromPubkey: chain.operator, toPubkey: to, lamports })), [], { kind: 'test' });
    const fundShared = () => pay(shared, LAMPORTS_PER_SOL);
    await fundShared();
    await pay(leaving.publicKey, LAMPORTS_PER_SOL / 100);
    // The first: adds a lamport to `shared` and empties `leaving` (a row to delete, so its accounts are
    // written in two statements).
    const first = new Transaction().add(
      SystemProgram.transfer({ fromPubkey: leaving.publicKey, toPubkey: chain.operator, lamports: LAMPORTS_PER_SOL / 100 }),
      SystemProgram.transfer({ fromPubkey: chain.operator, toPubkey: shared, lamports: 1 }),
    );
    // The second runs and commits as soon as the first's first statement is answered.
    let second: Promise<unknown> | null = null;
    const deletes = new Set<string>();
    const between: KyselyPlugin = {
      transformQuery: ({ node, queryId }) => {
        if (DeleteQueryNode.is(node)) deletes.add(queryId.queryId);
        return node;
      },
      transformResult: async ({ queryId, result }) => {
        if (deletes.has(queryId.queryId) && !second) await (second = fundShared());
        return result;
      },
    };
    await db.transaction().execute((trx) => chain.sendTransaction(first, [leaving], { kind: 'test', db: trx.withPlugin(between) }));
    expect(second).not.toBeNull(); // it did run between the first's statements
    expect((await chain.getAccountInfo(shared))?.lamports).toBe(BigInt(2 * LAMPORTS_PER_SOL + 1));
    const row = await db.selectFrom('chain_account').select(['lamports']).where('pubkey', '=', shared.toBase58()).executeTakeFirstOrThrow();
    expect(row.lamports).toBe(String(2 * LAMPORTS_PER_SOL + 1));
    expect(await db.selectFrom('chain_account').select('pubkey').where('pubkey', '=', leaving.publicKey.toBase58()).executeTakeFirst()).toBeUndefined();
  });

  // Found by bench:soak: when nothing asked for a blockhash (no wallet flow, no JSON-RPC client) for
  // longer than a blockhash stays valid, every transaction the server signed itself named the same,
  // by then expired, blockhash and was refused ("Blockhash not found") — every certificate added
  // 150 s after the last wallet flow failed. The server signs with a current blockhash, as a client of
  // a cluster asks for one per transaction.
  it('signs its own transactions with a current blockhash however long nobody asked for one', async () => {
    await chain.anchorCertificate({ hash: Uint8Array.from({ length: 32 }, () => 21), holder: Keypair.generate().publicKey }, { kind: 'anchor_certificate' });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + BLOCKHASH_VALID_MS + 1000 });
    try {
      const r = await chain.anchorCertificate({ hash: Uint8Array.from({ length: 32 }, () => 22), holder: Keypair.generate().publicKey }, { kind: 'anchor_certificate' });
      expect(r.signature).toBeTruthy();
      expect((await chain.readCertificate(Uint8Array.from({ length: 32 }, () => 22)))?.status).toBe(CertificateStatus.Pending);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('embedded chain: the operator pays for everything', () => {
  it('is refilled before a transaction it pays for when below its reserve, not only at start', async () => {
    const { OPERATOR_RESERVE_LAMPORTS } = await import('../src/services/chain/embedded');
    const balance = async () => (await chain.getAccountInfo(chain.operator))!.lamports;
    // Spend all but a little more than the reserve, then a little more: below it, with too little left for a record's rent.
    const sink = Keypair.generate().publicKey;
    const spend = async (keep: bigint) => {
      const now = await balance();
      await chain.sendTransaction(new Transaction().add(SystemProgram.transfer({ fromPubkey: chain.operator, toPubkey: sink, lamports: Number(now - keep) })), [], { kind: 'test_spend' });
    };
    await spend(1_000_000n); // 0.001 SOL left: not enough for a certificate record's rent
    expect(await balance()).toBeLessThan(OPERATOR_RESERVE_LAMPORTS);
    const hash = Uint8Array.from({ length: 32 }, (_, i) => (i * 13 + 5) % 256);
    await chain.anchorCertificate({ hash, holder: Keypair.generate().publicKey }, { kind: 'anchor_certificate' });
    expect((await chain.readCertificate(hash))?.status).toBe(CertificateStatus.Pending);
    expect(await balance()).toBeGreaterThan(OPERATOR_RESERVE_LAMPORTS);
    // Persisted with the transaction: the committed row holds the refilled balance.
    const row = await db.selectFrom('chain_account').select('lamports').where('pubkey', '=', chain.operator.toBase58()).executeTakeFirstOrThrow();
    expect(BigInt(row.lamports)).toBeGreaterThan(OPERATOR_RESERVE_LAMPORTS);
  });
});
