import fs from 'node:fs';
import path from 'node:path';
import { createServer } from 'node:net';
import ArLocal from 'arlocal';
import Arweave from 'arweave';
import { PublicKey } from '@solana/web3.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromHex } from '../../shared/program/codec';
import { readCertificateNft } from '../src/services/mint';
import type { Server } from '../src/app';
import { startTestServer, tmpDataDir } from './helpers';
import { addCertificate, holderBrowser, toB64, walletSign } from './mint-support/flow';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

let arlocal: ArLocal;
let arUrl: string;
let server: Server;
const dirs: string[] = [];

beforeAll(async () => {
  const port = await freePort();
  const arDir = tmpDataDir();
  const dataDir = tmpDataDir();
  dirs.push(arDir, dataDir);
  arlocal = new ArLocal(port, false, arDir);
  await arlocal.start();
  arUrl = `http://127.0.0.1:${port}`;
  const arweave = Arweave.init({ host: '127.0.0.1', port, protocol: 'http' });
  const jwk = await arweave.wallets.generate();
  const walletPath = path.join(dataDir, 'arweave.json');
  fs.writeFileSync(walletPath, JSON.stringify(jwk), { mode: 0o600 });
  expect((await fetch(`${arUrl}/mint/${await arweave.wallets.jwkToAddress(jwk)}/100000000000000`)).ok).toBe(true);
  server = await startTestServer(dataDir, { ARWEAVE_URL: arUrl, ARWEAVE_WALLET_PATH: walletPath });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await arlocal?.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('mint with Arweave as the permanent store (arlocal)', () => {
  it('stores the PDF and the metadata on Arweave once and points the NFT at them', { timeout: 120_000 }, async () => {
    const b = await holderBrowser(server);
    const { cert, pdf } = await addCertificate(b);
    const first = await b.mint.prepare.mutate({ id: cert.id });
    // A second request (the first was abandoned) reuses both uploads.
    const second = await b.mint.prepare.mutate({ id: cert.id });
    const copies = await server.services.db.selectFrom('permanent_copy').selectAll().execute();
    expect(copies.map((c) => c.content_type).sort()).toEqual(['application/json', 'application/pdf', 'image/png']);
    expect(copies.every((c) => c.store.startsWith('arweave:') && c.url.startsWith(`${arUrl}/`))).toBe(true);
    const atts = await server.services.db.selectFrom('mint_attempt').select(['mint_address', 'metadata_url', 'pdf_url']).where('certificate_id', '=', cert.id).execute();
    expect(new Set(atts.map((a) => a.metadata_url)).size).toBe(1);

    const res = await b.mint.submit.mutate({ id: cert.id, signedTransaction: toB64(walletSign(second.transaction, b.holder)) });
    expect(res.mint_address).toBe(second.mint_address);
    expect(res.arweave_url).toMatch(new RegExp(`^${arUrl}/[A-Za-z0-9_-]{43}$`));
    expect(Buffer.from(await (await fetch(res.arweave_url!)).arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);

    const nft = await readCertificateNft(server.services.chain, { mint: new PublicKey(res.mint_address), holder: b.holder.publicKey, hash: fromHex(cert.sha256), record: new PublicKey(cert.record_address) });
    expect(nft.uri).toBe(atts[0].metadata_url);
    const meta = await (await fetch(nft.uri)).json();
    expect(meta.properties.files).toEqual([
      { uri: meta.image, type: 'image/png' },
      { uri: res.arweave_url, type: 'application/pdf' },
    ]);
    expect(meta.image).toMatch(new RegExp(`^${arUrl}/[A-Za-z0-9_-]{43}$`));
    const image = await fetch(meta.image);
    expect(image.headers.get('content-type')).toMatch(/^image\/png/);
    expect((await sharp(Buffer.from(await image.arrayBuffer())).metadata()).format).toBe('png');
    // The abandoned request cannot mint a second NFT.
    expect((await b.mint.submit.mutate({ id: cert.id, signedTransaction: toB64(walletSign(first.transaction, b.holder)) })).mint_address).toBe(res.mint_address);
    expect((await server.services.chain.readRegistry())!.mintedCount).toBe(1n);
  });
});
