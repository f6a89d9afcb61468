import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ArLocal from 'arlocal';
import Arweave from 'arweave';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import {
  createArweavePermanentStore,
  createLocalPermanentStore,
  createPermanentStore,
  isPermanentId,
  PermanentStoreError,
  readPermanent,
} from './index.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const metadataJson = () =>
  new TextEncoder().encode(JSON.stringify({ name: 'Certificate of Completion', symbol: 'ATST', attributes: [{ trait_type: 'sha256', value: 'ab'.repeat(32) }] }));
// 3 MB of incompressible bytes behind a PDF header: big enough to need the chunk uploader.
const bigPdf = () => new Uint8Array(Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(3 * 1024 * 1024), Buffer.from('\n%%EOF\n')]));

describe('local permanent store', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'attesta-perm-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('stores by content hash, reads back byte for byte, and serves with the content type', async () => {
    const store = createLocalPermanentStore({ dir, publicBaseUrl: 'http://localhost:3000/' });
    for (const [bytes, type] of [[metadataJson(), 'application/json'], [bigPdf(), 'application/pdf']] as const) {
      const { id, url } = await store.put(bytes, type, { 'Certificate-Id': 'cert-1' });
      expect(id).toBe(sha(bytes));
      expect(url).toBe(`http://localhost:3000/permanent/${id}`);
      expect(Buffer.from((await store.get(id))!).equals(Buffer.from(bytes))).toBe(true);
      const served = await readPermanent(dir, id);
      expect(served?.contentType).toBe(type);
      expect(served?.tags).toEqual({ 'Certificate-Id': 'cert-1' });
    }
  });

  it('is write-once: the same bytes give the same id and the first object stays', async () => {
    const store = createLocalPermanentStore({ dir, publicBaseUrl: 'http://x' });
    const bytes = new TextEncoder().encode('same content');
    const a = await store.put(bytes, 'text/plain');
    const b = await store.put(bytes, 'application/octet-stream');
    expect(b.id).toBe(a.id);
    expect((await readPermanent(dir, a.id))?.contentType).toBe('text/plain');
    // concurrent writers of the same content both succeed, with one object on disk
    const other = new TextEncoder().encode('raced content');
    const ids = await Promise.all([1, 2, 3, 4].map(() => store.put(other, 'text/plain')));
    expect(new Set(ids.map((r) => r.id)).size).toBe(1);
    expect(new TextDecoder().decode((await store.get(ids[0].id))!)).toBe('raced content');
    expect((await readdir(dir)).filter((f) => f.startsWith('.tmp-'))).toEqual([]);
  });

  it('returns null for unknown ids and for anything that is not 64 hex chars', async () => {
    expect(await readPermanent(dir, 'f'.repeat(64))).toBeNull();
    for (const bad of ['../etc/passwd', 'A'.repeat(64), 'abc', '0'.repeat(63) + '/', '']) {
      expect(isPermanentId(bad)).toBe(false);
      expect(await readPermanent(dir, bad)).toBeNull();
    }
  });

  it('refuses to serve an object whose bytes were altered on disk', async () => {
    const store = createLocalPermanentStore({ dir, publicBaseUrl: 'http://x' });
    const { id } = await store.put(new TextEncoder().encode('original'), 'text/plain');
    await writeFile(join(dir, id), 'tampered');
    await expect(readPermanent(dir, id)).rejects.toThrow(/corrupted/);
  });

  it('reads its configuration from the environment', () => {
    expect(loadConfig({}).permanent).toMatchObject({ arweaveUrl: undefined, arweaveWalletPath: undefined, arweaveJwk: undefined });
    expect(loadConfig({ ARWEAVE_URL: 'http://a', ARWEAVE_WALLET_JWK: '{"kty":"RSA"}' }).permanent).toMatchObject({ arweaveUrl: 'http://a', arweaveJwk: { kty: 'RSA' } });
    expect(() => loadConfig({ ARWEAVE_WALLET_JWK: '{oops' })).toThrow(/ARWEAVE_WALLET_JWK is not valid JSON/);
  });

  it('createPermanentStore: local by default, clear error for Arweave without a wallet', () => {
    expect(createPermanentStore({ dataDir: dir, publicBaseUrl: 'http://x' }).kind).toBe('local');
    expect(() => createPermanentStore({ dataDir: dir, publicBaseUrl: 'http://x', arweaveUrl: 'http://127.0.0.1:1' })).toThrow(/ARWEAVE_WALLET_PATH/);
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe('Arweave permanent store against arlocal', () => {
  let arlocal: ArLocal;
  let url: string;
  let dbDir: string;
  let walletPath: string;
  let address: string;
  let poor: Awaited<ReturnType<Arweave['wallets']['generate']>>;

  beforeAll(async () => {
    const port = await freePort();
    dbDir = await mkdtemp(join(tmpdir(), 'attesta-arlocal-'));
    arlocal = new ArLocal(port, false, dbDir);
    await arlocal.start();
    url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 50; i++) {
      if (await fetch(`${url}/info`).then((r) => r.ok, () => false)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const arweave = Arweave.init({ host: '127.0.0.1', port, protocol: 'http' });
    // RSA-4096 key generation is slow; make both wallets at once.
    let jwk;
    [jwk, poor] = await Promise.all([arweave.wallets.generate(), arweave.wallets.generate()]);
    address = await arweave.wallets.jwkToAddress(jwk);
    walletPath = join(dbDir, 'wallet.json');
    await writeFile(walletPath, JSON.stringify(jwk), { mode: 0o600 });
    expect((await fetch(`${url}/mint/${address}/100000000000000`)).ok).toBe(true);
  });

  afterAll(async () => {
    await arlocal?.stop();
    await rm(dbDir, { recursive: true, force: true });
  });

  it('puts the metadata JSON and a 3 MB PDF, mines, and reads both back byte for byte', async () => {
    const store = createPermanentStore({ dataDir: dbDir, publicBaseUrl: 'http://x', arweaveUrl: url, arweaveWalletPath: walletPath });
    expect(store.kind).toBe('arweave');
    const json = metadataJson();
    const pdf = bigPdf();
    const a = await store.put(json, 'application/json', { 'Certificate-Id': 'cert-1' });
    const b = await store.put(pdf, 'application/pdf', { 'Certificate-Id': 'cert-1' });
    expect(a.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.url).toBe(`${url}/${a.id}`);
    expect(Buffer.from((await store.get(a.id))!).equals(Buffer.from(json))).toBe(true);
    const back = await store.get(b.id);
    expect(back?.length).toBe(pdf.length);
    expect(sha(back!)).toBe(sha(pdf));

    // the transaction is mined and carries the tags readers rely on
    const arweave = (store as unknown as { arweave: Arweave }).arweave;
    expect((await arweave.transactions.getStatus(b.id)).status).toBe(200);
    const tx = await arweave.transactions.get(a.id);
    const tags = Object.fromEntries(tx.tags.map((t) => [t.get('name', { decode: true, string: true }), t.get('value', { decode: true, string: true })]));
    expect(tags).toMatchObject({ 'Content-Type': 'application/json', 'App-Name': 'Attesta', 'Certificate-Id': 'cert-1', 'Content-SHA256': sha(json) });
  });

  it('returns null for an unknown or malformed transaction id', async () => {
    const store = createArweavePermanentStore({ url, walletPath });
    expect(await store.get('a'.repeat(43))).toBeNull();
    expect(await store.get('../../etc')).toBeNull();
  });

  it('refuses to post from an unfunded wallet with an actionable message', async () => {
    const store = createArweavePermanentStore({ url, jwk: poor });
    const err = await store.put(metadataJson(), 'application/json').catch((e) => e);
    expect(err).toBeInstanceOf(PermanentStoreError);
    expect(err.message).toMatch(/has 0 winston .* Fund the wallet \(on arlocal: GET .*\/mint\//);
  });

  it('says so when the wallet file is missing or the node is unreachable', async () => {
    const missing = createArweavePermanentStore({ url, walletPath: join(dbDir, 'nope.json') });
    await expect(missing.put(metadataJson(), 'application/json')).rejects.toThrow(/Could not read the Arweave wallet/);
    const down = createArweavePermanentStore({ url: `http://127.0.0.1:${await freePort()}`, walletPath, timeoutMs: 2000 });
    await expect(down.put(metadataJson(), 'application/json')).rejects.toThrow(/Could not reach Arweave/);
  });
});
