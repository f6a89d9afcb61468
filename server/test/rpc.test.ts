import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SendTransactionError,
  SystemProgram,
  Transaction,
  sendAndConfirmTransaction,
} from '@solana/web3.js';
import bs58 from 'bs58';
import { CERTIFICATE_LEN, CertificateStatus, decodeCertificate, fromHex, TrustTier } from '../../shared/program/codec';
import { certificatePda } from '../../shared/program/pda';
import { loadOrCreateDemoKeys } from '../src/services/demo/keys';
import { tmpDataDir } from './helpers';
import { rpcCall, startRpcServer } from './rpc-helpers';
import Fastify from 'fastify';
import { registerJsonRpc } from '../src/json-rpc';

// The embedded chain's JSON-RPC through a real web3.js Connection (HTTP + WebSocket) and raw
// JSON-RPC bodies for the protocol's edges. Demo data: cert-1 verified, cert-2 pending, cert-3 rejected.

const dataDir = tmpDataDir();
// This installation's demo holder (random per data dir, kept in demo-keys.json).
const demoHolderKey = () => loadOrCreateDemoKeys(dataDir).holder;
let s: Awaited<ReturnType<typeof startRpcServer>>;
let conn: Connection;
const connect = (url: string) => new Connection(url, { commitment: 'confirmed', wsEndpoint: url.replace(/^http/, 'ws') });
const body = (method: string, params?: unknown[], id: number | string = 1) => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });

async function demoHash(id: string) {
  const row = await s.server.services.db.selectFrom('certificate').select('sha256').where('id', '=', id).executeTakeFirstOrThrow();
  return fromHex(row.sha256);
}

beforeAll(async () => {
  s = await startRpcServer(dataDir);
  conn = connect(s.url);
});
afterAll(async () => {
  await s?.close();
});

describe('JSON-RPC on the embedded chain: reads', () => {
  it('reads a certificate record with getAccountInfo and decodes it with the shared codec', async () => {
    const hash = await demoHash('cert-1');
    const address = certificatePda(hash)[0];
    const info = await conn.getAccountInfo(address);
    expect(info).not.toBeNull();
    expect(info!.owner.toBase58()).toBe(s.server.services.chain.programId.toBase58());
    expect(info!.data.length).toBe(CERTIFICATE_LEN);
    const cert = decodeCertificate(new Uint8Array(info!.data));
    expect(cert.status).toBe(CertificateStatus.Verified);
    expect(cert.tier).toBe(TrustTier.IssuerConfirmed);
    expect(cert.holder.toBase58()).toBe(demoHolderKey().publicKey.toBase58());

    // The validator's wrapper and encodings, as raw JSON.
    const raw = await rpcCall(s.url, body('getAccountInfo', [address.toBase58(), { encoding: 'base64' }]));
    expect(raw.status).toBe(200);
    expect(raw.json.jsonrpc).toBe('2.0');
    expect(raw.json.id).toBe(1);
    expect(typeof raw.json.result.context.slot).toBe('number');
    expect(raw.json.result.value.data[1]).toBe('base64');
    expect(Buffer.from(raw.json.result.value.data[0], 'base64').equals(info!.data)).toBe(true);
    expect(raw.json.result.value.space).toBe(CERTIFICATE_LEN);
    expect(raw.text).toContain('"rentEpoch":18446744073709551615');
    // base58 of more than 128 bytes is refused as the validator does; a slice is fine.
    const b58 = await rpcCall(s.url, body('getAccountInfo', [address.toBase58(), { encoding: 'base58' }]));
    expect(b58.json.error.code).toBe(-32600);
    expect(b58.json.error.message).toMatch(/base 58/);
    const sliced = await rpcCall(s.url, body('getAccountInfo', [address.toBase58(), { encoding: 'base58', dataSlice: { offset: 8, length: 32 } }]));
    expect(sliced.json.result.value.data).toEqual([demoHolderKey().publicKey.toBase58(), 'base58']);
    // A missing account is value null, not an error.
    const missing = await conn.getAccountInfo(Keypair.generate().publicKey);
    expect(missing).toBeNull();
  });

  it('getMultipleAccounts returns records in order, null for missing ones', async () => {
    const keys = [certificatePda(await demoHash('cert-2'))[0], Keypair.generate().publicKey, certificatePda(await demoHash('cert-3'))[0]];
    const [a, missing, c] = await conn.getMultipleAccountsInfo(keys);
    expect(decodeCertificate(new Uint8Array(a!.data)).status).toBe(CertificateStatus.Pending);
    expect(missing).toBeNull();
    expect(decodeCertificate(new Uint8Array(c!.data)).status).toBe(CertificateStatus.Rejected);
  });

  it("getProgramAccounts with a memcmp filter on the holder offset returns the holder's certificates", async () => {
    const programId = s.server.services.chain.programId;
    const holder = demoHolderKey().publicKey;
    const mine = await conn.getProgramAccounts(programId, { filters: [{ dataSize: CERTIFICATE_LEN }, { memcmp: { offset: 8, bytes: holder.toBase58() } }] });
    const expected = await Promise.all(['cert-1', 'cert-2', 'cert-3'].map(async (id) => certificatePda(await demoHash(id))[0].toBase58()));
    expect(mine.map((a) => a.pubkey.toBase58()).sort()).toEqual(expected.sort());
    for (const a of mine) expect(decodeCertificate(new Uint8Array(a.account.data)).holder.equals(holder)).toBe(true);

    // The same filter with base64 bytes, and a stranger with none.
    const b64 = await rpcCall(s.url, body('getProgramAccounts', [programId.toBase58(), { encoding: 'base64', filters: [{ memcmp: { offset: 8, bytes: holder.toBuffer().toString('base64'), encoding: 'base64' } }] }]));
    expect(b64.json.result.map((a: { pubkey: string }) => a.pubkey).sort()).toEqual(expected.sort());
    const none = await conn.getProgramAccounts(programId, { filters: [{ memcmp: { offset: 8, bytes: Keypair.generate().publicKey.toBase58() } }] });
    expect(none).toEqual([]);
    // Registry + issuer + 3 certificates: without filters every account of the program.
    const all = await conn.getProgramAccounts(programId);
    expect(all.length).toBe(5);
    // withContext wraps the list as the validator does.
    const ctx = await rpcCall(s.url, body('getProgramAccounts', [programId.toBase58(), { withContext: true, encoding: 'base64', filters: [{ dataSize: 210 }] }]));
    expect(ctx.json.result.context.slot).toBeGreaterThan(0);
    expect(ctx.json.result.value).toHaveLength(1);
  });

  it('answers the cluster methods Explorer and web3.js call', async () => {
    const version = await conn.getVersion();
    expect(version['solana-core']).toMatch(/^\d+\.\d+\.\d+$/);
    const slot = await conn.getSlot();
    expect(slot).toBeGreaterThan(0);
    expect(await conn.getBlockHeight()).toBe(slot);
    const epoch = await conn.getEpochInfo();
    expect(epoch.absoluteSlot).toBe(slot);
    expect(epoch.slotsInEpoch).toBe(432_000);
    const genesis = await conn.getGenesisHash();
    expect(bs58.decode(genesis)).toHaveLength(32);
    expect(await conn.getGenesisHash()).toBe(genesis);
    expect(await conn.getMinimumBalanceForRentExemption(CERTIFICATE_LEN)).toBe((128 + CERTIFICATE_LEN) * 6960);
    const { blockhash, lastValidBlockHeight } = await conn.getLatestBlockhash();
    expect(bs58.decode(blockhash)).toHaveLength(32);
    expect(lastValidBlockHeight).toBeGreaterThan(slot);
    expect((await conn.isBlockhashValid(blockhash)).value).toBe(true);
    expect((await rpcCall(s.url, body('getHealth'))).json.result).toBe('ok');
  });
});

describe('JSON-RPC: transactions', () => {
  const payer = Keypair.generate();
  const recipient = Keypair.generate().publicKey;
  let transferSig = '';

  it('airdrops, sends a SOL transfer and reflects it in statuses, the transaction and balances', async () => {
    const airdrop = await conn.requestAirdrop(payer.publicKey, 2 * LAMPORTS_PER_SOL);
    await conn.confirmTransaction({ signature: airdrop, ...(await conn.getLatestBlockhash()) });
    expect(await conn.getBalance(payer.publicKey)).toBe(2 * LAMPORTS_PER_SOL);

    const tx = new Transaction().add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports: 123_456_789 }));
    transferSig = await sendAndConfirmTransaction(conn, tx, [payer]); // waits on signatureSubscribe over WebSocket
    expect(await conn.getBalance(recipient)).toBe(123_456_789);
    expect(await conn.getBalance(payer.publicKey)).toBe(2 * LAMPORTS_PER_SOL - 123_456_789 - 5000);

    const statuses = await conn.getSignatureStatuses([transferSig, bs58.encode(new Uint8Array(64).fill(7))]);
    expect(statuses.value[0]).toMatchObject({ err: null, confirmationStatus: 'finalized' });
    expect(statuses.value[1]).toBeNull();

    const got = await conn.getTransaction(transferSig, { maxSupportedTransactionVersion: 0 });
    expect(got).not.toBeNull();
    expect(got!.version).toBe('legacy');
    expect(got!.meta!.err).toBeNull();
    expect(got!.meta!.fee).toBe(5000);
    const keys = got!.transaction.message.staticAccountKeys.map((k) => k.toBase58());
    expect(keys.slice(0, 2)).toEqual([payer.publicKey.toBase58(), recipient.toBase58()]);
    expect(got!.meta!.preBalances.slice(0, 2)).toEqual([2 * LAMPORTS_PER_SOL, 0]);
    expect(got!.meta!.postBalances.slice(0, 2)).toEqual([2 * LAMPORTS_PER_SOL - 123_456_789 - 5000, 123_456_789]);
    expect(got!.meta!.logMessages).toContain('Program 11111111111111111111111111111111 success');
    expect(got!.meta!.computeUnitsConsumed).toBeGreaterThan(0);
    expect(got!.transaction.signatures[0]).toBe(transferSig);
    expect(got!.slot).toBe(statuses.value[0]!.slot);
    expect(typeof got!.blockTime).toBe('number');

    const parsed = await conn.getParsedTransaction(transferSig, { maxSupportedTransactionVersion: 0 });
    expect(parsed!.transaction.message.instructions[0]).toMatchObject({ program: 'system', parsed: { type: 'transfer', info: { lamports: 123_456_789, source: payer.publicKey.toBase58(), destination: recipient.toBase58() } } });

    const history = await conn.getSignaturesForAddress(payer.publicKey);
    expect(history.map((h) => h.signature)).toEqual([transferSig, airdrop]);
    expect((await conn.getSignaturesForAddress(payer.publicKey, { limit: 1, before: transferSig })).map((h) => h.signature)).toEqual([airdrop]);

    // Written through the chain service: the same chain_transaction table as the server's own.
    const row = await s.server.services.db.selectFrom('chain_transaction').selectAll().where('signature', '=', transferSig).executeTakeFirst();
    expect(row).toMatchObject({ status: 'success', kind: 'rpc_send' });
    expect(await conn.getTransaction(bs58.encode(new Uint8Array(64).fill(9)), { maxSupportedTransactionVersion: 0 })).toBeNull();
  });

  it('accepts base58 transactions (the RPC default encoding) and rejects bad signatures with -32003', async () => {
    const { blockhash } = await conn.getLatestBlockhash();
    const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports: 1000 }));
    tx.sign(payer);
    const res = await rpcCall(s.url, body('sendTransaction', [bs58.encode(tx.serialize())]));
    expect(res.json.result).toBe(bs58.encode(tx.signature!));
    expect(await conn.getBalance(recipient)).toBe(123_456_789 + 1000);

    const forged = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports: 2000 }));
    forged.sign(payer);
    const bytes = forged.serialize();
    bytes[10] ^= 0xff; // corrupt the signature
    const bad = await rpcCall(s.url, body('sendTransaction', [Buffer.from(bytes).toString('base64'), { encoding: 'base64' }]));
    expect(bad.json.error).toMatchObject({ code: -32003, message: 'Transaction signature verification failure' });
    const garbage = await rpcCall(s.url, body('sendTransaction', ['AAAA', { encoding: 'base64' }]));
    expect(garbage.json.error.code).toBe(-32602);
  });

  it('refuses a failing transaction at preflight with the validator error shape and logs', async () => {
    const { blockhash } = await conn.getLatestBlockhash();
    const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports: 50 * LAMPORTS_PER_SOL }));
    tx.sign(payer);
    const raw = await rpcCall(s.url, body('sendTransaction', [tx.serialize().toString('base64'), { encoding: 'base64' }]));
    expect(raw.json.error.code).toBe(-32002);
    expect(raw.json.error.message).toBe('Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1');
    expect(raw.json.error.data.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(raw.json.error.data.logs.join('\n')).toMatch(/insufficient lamports/);
    // web3.js surfaces it as SendTransactionError with the logs.
    const err = await conn.sendRawTransaction(tx.serialize()).catch((e) => e);
    expect(err).toBeInstanceOf(SendTransactionError);
    expect((err as SendTransactionError).logs?.join('\n')).toMatch(/insufficient lamports/);
    // Nothing landed.
    expect(await conn.getBalance(recipient)).toBe(123_456_789 + 1000);
  });

  it('makes a new blockhash once a slot for callers, keeps recent ones valid, and refuses unknown ones (BlockhashNotFound)', async () => {
    const elsewhere = Keypair.generate().publicKey; // not `recipient`: later tests count its balance
    const first = (await conn.getLatestBlockhash()).blockhash;
    await new Promise((r) => setTimeout(r, 450)); // one slot later
    const second = (await conn.getLatestBlockhash()).blockhash;
    expect(second).not.toBe(first);
    expect((await conn.isBlockhashValid(first)).value).toBe(true);
    expect((await conn.isBlockhashValid(bs58.encode(new Uint8Array(32).fill(3)))).value).toBe(false);
    // A transaction under the older blockhash still lands: a wallet that fetched it before has not lost it.
    const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: first }).add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: elsewhere, lamports: LAMPORTS_PER_SOL / 100 }));
    tx.sign(payer);
    expect(await conn.sendRawTransaction(tx.serialize())).toBe(bs58.encode(tx.signature!));
    // A made-up blockhash: refused before running, as a validator does.
    const stale = new Transaction({ feePayer: payer.publicKey, recentBlockhash: bs58.encode(new Uint8Array(32).fill(3)) }).add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: elsewhere, lamports: LAMPORTS_PER_SOL / 100 + 1 }));
    stale.sign(payer);
    const raw = await rpcCall(s.url, body('sendTransaction', [stale.serialize().toString('base64'), { encoding: 'base64' }]));
    expect(raw.json.error).toMatchObject({ code: -32002, message: 'Transaction simulation failed: Blockhash not found', data: { err: 'BlockhashNotFound' } });
    // The same transaction refused for its state can be retried: the wallet gets a fresh blockhash.
    const failing = () => new Transaction().add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: elsewhere, lamports: 500 * LAMPORTS_PER_SOL }));
    for (let i = 0; i < 2; i++) {
      // Before, the second try waited for a blockhash that never came ("Unable to obtain a new blockhash").
      const e = await sendAndConfirmTransaction(conn, failing(), [payer]).catch((x) => x);
      expect(e).toBeInstanceOf(SendTransactionError);
      expect((e as SendTransactionError).logs?.join('\n')).toMatch(/insufficient lamports/);
    }
  });

  it('simulates unsigned transactions (sigVerify false) without changing state', async () => {
    const tx = new Transaction().add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports: 777 }));
    tx.feePayer = payer.publicKey;
    const before = await conn.getBalance(recipient);
    const sim = await conn.simulateTransaction(tx);
    expect(sim.value.err).toBeNull();
    expect(sim.value.logs).toContain('Program 11111111111111111111111111111111 success');
    expect(sim.value.unitsConsumed).toBeGreaterThan(0);
    expect(await conn.getBalance(recipient)).toBe(before);
    // With the post-simulation state of an account.
    const withAccounts = await conn.simulateTransaction(tx, undefined, [recipient]);
    expect(withAccounts.value.accounts![0]!.lamports).toBe(before + 777);
  });

  it("journals the server's own transactions and notifies account subscribers over WebSocket", async () => {
    const chain = s.server.services.chain;
    const hash = new Uint8Array(32).map((_, i) => i + 1);
    const record = certificatePda(hash, chain.programId)[0];
    const changed = new Promise<{ slot: number; status: number }>((resolve) => {
      const id = conn.onAccountChange(record, (acc, ctx) => {
        void conn.removeAccountChangeListener(id);
        resolve({ slot: ctx.slot, status: decodeCertificate(new Uint8Array(acc.data)).status });
      });
    });
    await new Promise((r) => setTimeout(r, 300)); // let the subscription reach the server
    const receipt = await chain.anchorCertificate({ hash, holder: payer.publicKey }, { kind: 'anchor_certificate' });
    expect(await changed).toEqual({ slot: receipt.slot, status: CertificateStatus.Pending });

    const got = await conn.getTransaction(receipt.signature, { maxSupportedTransactionVersion: 0 });
    const keys = got!.transaction.message.staticAccountKeys.map((k) => k.toBase58());
    expect(keys[0]).toBe(chain.operator.toBase58()); // the operator pays
    expect(keys).toContain(record.toBase58());
    expect(got!.meta!.logMessages!.join('\n')).toContain(`Program ${chain.programId.toBase58()} success`);
    // Rent for the new 172-byte record moved from the operator to the record.
    const i = keys.indexOf(record.toBase58());
    expect(got!.meta!.preBalances[i]).toBe(0);
    expect(got!.meta!.postBalances[i]).toBe((128 + CERTIFICATE_LEN) * 6960);
    expect((await conn.getSignaturesForAddress(record)).map((x) => x.signature)).toEqual([receipt.signature]);
  });

  it('keeps transactions, balances and history across a restart', async () => {
    await s.close();
    s = await startRpcServer(dataDir);
    conn = connect(s.url);
    expect(await conn.getBalance(recipient)).toBe(123_456_789 + 1000);
    const st = await conn.getSignatureStatuses([transferSig]);
    expect(st.value[0]).toMatchObject({ err: null, confirmationStatus: 'finalized' });
    const got = await conn.getTransaction(transferSig, { maxSupportedTransactionVersion: 0 });
    expect(got!.meta!.postBalances[1]).toBe(123_456_789);
    // The chain continues: a new transfer after the restart lands too.
    const sig = await sendAndConfirmTransaction(conn, new Transaction().add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports: 5 })), [payer]);
    expect((await conn.getSignatureStatuses([sig])).value[0]!.slot).toBeGreaterThan(got!.slot);
  });
});

describe('JSON-RPC protocol', () => {
  it('answers 404 when the server uses an external RPC (no proxying)', async () => {
    const side = Fastify();
    await registerJsonRpc(side, { ...s.server.services, chain: { ...s.server.services.chain, mode: 'rpc' } } as never);
    const res = await side.inject({ method: 'POST', url: '/rpc', payload: body('getHealth') });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatch(/external Solana RPC/);
    await side.close();
  });

  it('answers batches in order, skipping notifications', async () => {
    const key = Keypair.generate().publicKey.toBase58();
    const res = await rpcCall(s.url, [body('getHealth', [], 1), { jsonrpc: '2.0', method: 'getSlot' }, body('getBalance', [key], 'b'), body('nope', [], 3)]);
    expect(res.json).toHaveLength(3);
    expect(res.json[0]).toEqual({ jsonrpc: '2.0', result: 'ok', id: 1 });
    expect(res.json[1].id).toBe('b');
    expect(res.json[1].result.value).toBe(0);
    expect(res.json[2]).toEqual({ jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: 3 });
    const empty = await rpcCall(s.url, []);
    expect(empty.json.error.code).toBe(-32600);
    const junk = await rpcCall(s.url, [1]);
    expect(junk.json).toEqual([{ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id: null }]);
  });

  it('uses the JSON-RPC error codes: -32700, -32600, -32601, -32602', async () => {
    expect((await rpcCall(s.url, '{"jsonrpc":"2.0",')).json).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
    expect((await rpcCall(s.url, { jsonrpc: '1.0', id: 1, method: 'getSlot' })).json.error.code).toBe(-32600);
    expect((await rpcCall(s.url, body('getBlockProduction2'))).json.error).toEqual({ code: -32601, message: 'Method not found' });
    for (const params of [['not-a-key'], [42], [Keypair.generate().publicKey.toBase58(), { encoding: 'hex' }], [Keypair.generate().publicKey.toBase58(), { bogus: 1 }]]) {
      const r = await rpcCall(s.url, body('getAccountInfo', params));
      expect(r.json.error?.code, `${JSON.stringify(params)} → ${r.text}`).toBe(-32602);
    }
    expect((await rpcCall(s.url, { jsonrpc: '2.0', id: 1, method: 'getBalance', params: { pubkey: 'x' } })).json.error.code).toBe(-32602);
    expect((await rpcCall(s.url, body('getTransaction', ['xyz']))).json.error.code).toBe(-32602);
    expect((await rpcCall(s.url, body('getProgramAccounts', [PublicKey.default.toBase58(), { filters: [{ memcmp: { offset: 0 } }] }]))).json.error.code).toBe(-32602);
    const minSlot = await rpcCall(s.url, body('getSlot', [{ minContextSlot: 10 ** 12 }]));
    expect(minSlot.json.error.code).toBe(-32016);
  });

  it('allows browsers (Explorer custom cluster) with CORS preflight; GET is 405', async () => {
    const pre = await fetch(s.url, { method: 'OPTIONS', headers: { origin: 'https://explorer.solana.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,solana-client' } });
    expect(pre.status).toBe(200);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-methods')).toMatch(/POST/);
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/solana-client/);
    const post = await rpcCall(s.url, body('getHealth'));
    expect(post.headers.get('access-control-allow-origin')).toBe('*');
    expect((await fetch(s.url)).status).toBe(405);
  });
});
