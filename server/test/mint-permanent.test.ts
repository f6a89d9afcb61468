import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { Keypair, PublicKey } from '@solana/web3.js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explorerAddressUrl, explorerClusterFor, explorerTxUrl } from '../../shared/explorer';
import { openDatabase } from '../src/db';
import type { Database } from '../src/db/schema';
import { permanentRoutes } from '../src/http/permanent';
import { nftMetadataJson, shortenName } from '../src/services/mint';
import { fitOnchainName, mintTxSize } from '../src/services/mint/metadata';
import { putOnce, sha256Hex, type NamedPermanentStore } from '../src/services/mint/permanent';
import { BADGE_CONTENT_TYPE, BADGE_SIZE, badgeSvg, renderBadgePng, wrapLines } from '../src/services/mint/badge';
import { createLocalPermanentStore } from '../src/services/permanent';
import { testConfig, tmpDataDir } from './helpers';

/** A real 3 MB PDF: one page of text plus a 3 MB incompressible attachment. */
async function bigPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([842, 595]);
  page.drawText('Harbor Institute — Certificate of Completion', { x: 60, y: 500, size: 20, font: await doc.embedFont(StandardFonts.Helvetica) });
  await doc.attach(randomBytes(3 * 1024 * 1024), 'scan.bin', { mimeType: 'application/octet-stream' });
  return doc.save({ useObjectStreams: false });
}

let dir: string;
let app: FastifyInstance;
let base: string;
let db: Kysely<Database>;
let store: NamedPermanentStore & { dir: string };
let uploads = 0;

beforeAll(async () => {
  dir = tmpDataDir();
  db = (await openDatabase((await testConfig(dir)).database)).db;
  app = Fastify();
  await app.register(permanentRoutes, { dir: path.join(dir, 'permanent') });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const local = createLocalPermanentStore({ dir: path.join(dir, 'permanent'), publicBaseUrl: base });
  // Counts real uploads: a reused copy must not upload again (on Arweave every upload costs).
  store = { ...local, key: `local:${base}`, put: (b, t, tags) => (uploads++, local.put(b, t, tags)) };
});
afterAll(async () => {
  await app?.close();
  await db?.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('permanent copies served read-only at /permanent/:id', () => {
  it('round-trips a 3 MB PDF byte for byte, cached for an hour (it can be withdrawn), and stores it once', async () => {
    const pdf = await bigPdf();
    expect(pdf.length).toBeGreaterThan(3 * 1024 * 1024);
    const first = await putOnce(db, store, pdf, 'application/pdf', { 'Certificate-SHA256': sha256Hex(pdf) });
    expect(first.url).toBe(`${base}/permanent/${sha256Hex(pdf)}`);
    const res = await fetch(first.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = res.headers.get('etag')!;
    expect(etag).toBe(`"${first.id}"`);
    const back = new Uint8Array(await res.arrayBuffer());
    expect(back.length).toBe(pdf.length);
    expect(Buffer.from(back).equals(Buffer.from(pdf))).toBe(true);

    // Conditional and HEAD requests.
    expect((await fetch(first.url, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const head = await fetch(first.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(pdf.length);

    // A retry reuses the copy: same URL, no second upload, one row.
    const before = uploads;
    const again = await putOnce(db, store, pdf, 'application/pdf');
    expect(again.url).toBe(first.url);
    expect(uploads).toBe(before);
    expect(await db.selectFrom('permanent_copy').selectAll().where('content_sha256', '=', first.sha256).execute()).toHaveLength(1);
  });

  it('round-trips the NFT metadata JSON', async () => {
    const cert = { title: 'Certificate of Completion', institution_name: 'Harbor Institute', program_name: 'Marine Robotics', issue_date: '2025-03-03', sha256: 'ab'.repeat(32), record_address: PublicKey.unique().toBase58(), tier: 'platform_verified' };
    const links = { verifyUrl: 'https://attesta.example/view/u1/c1', pdfUrl: `${base}/permanent/${'cd'.repeat(32)}`, imageUrl: `${base}/permanent/${'ef'.repeat(32)}`, mintedOn: '2026-11-28', expiresAt: null };
    const meta = nftMetadataJson({ cert, ...links });
    const bytes = new TextEncoder().encode(JSON.stringify(meta));
    const { url } = await putOnce(db, store, bytes, 'application/json');
    const res = await fetch(url);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    // Deterministic: the same certificate gives the same bytes (so a retried prepare reuses them).
    expect(JSON.stringify(nftMetadataJson({ cert, ...links }))).toBe(JSON.stringify(meta));
    // What wallets and marketplaces read (Metaplex JSON): the picture first, then the certificate PDF.
    expect(meta).toMatchObject({ image: links.imageUrl, external_url: links.verifyUrl, properties: { category: 'image' } });
    expect(meta.properties.files).toEqual([
      { uri: links.imageUrl, type: 'image/png' },
      { uri: links.pdfUrl, type: 'application/pdf' },
    ]);
    expect(meta.attributes).toContainEqual({ trait_type: 'Trust Tier', value: 'Checked by Attesta only' });
    expect(meta.attributes).toContainEqual({ trait_type: 'Check Flags', value: 'None' });
  });

  it("carries what the platform's check flagged, where that check is all the token rests on", () => {
    const cert = { title: 'Master of Business Administration', institution_name: 'Northfield University', program_name: 'Finance', issue_date: '2023-06-01', sha256: 'ab'.repeat(32), record_address: PublicKey.unique().toBase58(), tier: 'platform_verified' };
    const links = { verifyUrl: 'https://attesta.example/view/u1/c1', pdfUrl: `${base}/permanent/${'cd'.repeat(32)}`, imageUrl: `${base}/permanent/${'ef'.repeat(32)}`, mintedOn: '2026-11-28', expiresAt: null };
    const flags = ['Saved by an editing tool (iLovePDF) after being created by Microsoft Word.', 'Modified 4 years after it was created.'];
    const meta = nftMetadataJson({ cert, ...links, flags });
    expect(meta.description).toContain(
      "Checked by Attesta only (the file's text names its title, program, institution and holder; the issue date is the holder's own entry), not confirmed by Northfield University. Attesta's check flagged (not a rejection on its own): Saved by an editing tool (iLovePDF) after being created by Microsoft Word. Modified 4 years after it was created.",
    );
    expect(meta.attributes).toContainEqual({ trait_type: 'Check Flags', value: flags.join(' ') });
  });

  it('names the signing institution, its domain and whether it is proven: "Issuer confirmed" only when proven', () => {
    const cert = { title: 'Diploma', institution_name: 'Northfield (as typed)', program_name: 'Physics', issue_date: '2025-06-01', sha256: 'ab'.repeat(32), record_address: PublicKey.unique().toBase58(), tier: 'issuer_confirmed' };
    const links = { verifyUrl: 'https://attesta.example/view/u1/c1', pdfUrl: `${base}/permanent/${'cd'.repeat(32)}`, imageUrl: `${base}/permanent/${'ef'.repeat(32)}`, mintedOn: '2026-11-28', expiresAt: null };
    const attrs = (m: ReturnType<typeof nftMetadataJson>) => Object.fromEntries(m.attributes.map((a) => [a.trait_type, a.value]));
    const proven = nftMetadataJson({ cert, issuer: { name: 'Northfield University', domain: 'northfield.test', domain_proven: true }, ...links });
    // The proof is dated: the metadata is permanent, and a domain proof can lapse after the mint.
    expect(proven.description).toContain('Confirmed by Northfield University (northfield.test, domain proven when minted, 2026-11-28): its own key signed the record.');
    expect(attrs(proven)).toMatchObject({ 'Trust Tier': 'Issuer confirmed', 'Signed By': 'Northfield University', 'Issuer Domain': 'northfield.test', 'Domain Proven': 'Yes, when minted (2026-11-28)', Institution: 'Northfield (as typed)' });
    expect(JSON.stringify(proven)).not.toMatch(/"Domain Proven","value":"Yes"|domain proven\)/);
    const unproven = nftMetadataJson({ cert, issuer: { name: 'Attesta Demo University', domain: 'demo.attesta.example', domain_proven: false }, ...links });
    expect(unproven.description).toContain("The record was signed with Attesta Demo University's own key, but its domain demo.attesta.example was not proven when this token was minted, 2026-11-28.");
    expect(unproven.description).not.toContain('Confirmed by');
    expect(attrs(unproven)).toMatchObject({ 'Trust Tier': 'Signed, domain not proven', 'Domain Proven': 'No, when minted (2026-11-28)' });
    // No institution read at all: never "Issuer confirmed".
    expect(attrs(nftMetadataJson({ cert, ...links }))['Trust Tier']).toBe('Signed, domain not proven');

    // The expiry the record sets, in the description and as an attribute; "Never" when it sets none.
    expect(proven.description).toContain('Its record sets no expiry.');
    expect(attrs(proven).Expires).toBe('Never');
    const expiring = nftMetadataJson({ cert, issuer: { name: 'Northfield University', domain: 'northfield.test', domain_proven: true }, ...links, expiresAt: '2027-06-30T23:59:59.000Z' });
    expect(expiring.description).toContain('It expires on 2027-06-30 (UTC): not valid after that day.');
    expect(attrs(expiring).Expires).toBe('2027-06-30');

    const confirmedSvg = badgeSvg({ institution: 'Northfield University', tier: 'issuer_confirmed', domain: 'northfield.test', verifyHost: 'attesta.example' });
    for (const t of ['CONFIRMED BY', '>Northfield<', '>University<', 'northfield.test · domain proven', 'Issuer confirmed', 'Status at minting · check now at attesta.example']) expect(confirmedSvg).toContain(t);
    const signedSvg = badgeSvg({ institution: 'Attesta Demo University', tier: 'issuer_signed', domain: 'demo.attesta.example', verifyHost: 'attesta.example' });
    for (const t of ['SIGNED WITH THE KEY OF', 'demo.attesta.example · domain not proven', 'Signed, domain not proven']) expect(signedSvg).toContain(t);
    for (const t of ['CONFIRMED BY', 'Issuer confirmed']) expect(signedSvg).not.toContain(t);
  });

  it('renders the badge picture once per institution and tier and serves it as image/png', async () => {
    const input = { institution: 'Harbor Institute', tier: 'issuer_confirmed', verifyHost: 'attesta.example' };
    const png = await renderBadgePng(input);
    expect(Buffer.from(png).equals(Buffer.from(await renderBadgePng(input)))).toBe(true); // same bytes: a retry reuses the copy
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: BADGE_SIZE, height: BADGE_SIZE });
    // Text is drawn (not an empty card): the institution's area differs from a badge without one.
    const other = await renderBadgePng({ ...input, institution: 'Another School' });
    expect(Buffer.from(other).equals(Buffer.from(png))).toBe(false);
    const { url } = await putOnce(db, store, png, BADGE_CONTENT_TYPE);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('content-disposition')).toBeNull();
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(png))).toBe(true);
  });

  it('draws only escaped text into the badge SVG, and fits long institution names', () => {
    const svg = badgeSvg({ institution: 'Evil <image href="file:///etc/passwd"/> & Co\u0007', tier: 'platform_verified', verifyHost: 'attesta.example' });
    expect(svg).not.toContain('<image');
    expect(svg).toContain('&lt;image');
    expect(svg).toContain('href=&quot;file:///etc/pass');
    expect(svg).toContain('&quot;/&gt;');
    expect(svg).toContain('&amp; Co');
    expect(svg).not.toContain('\u0007');
    expect(svg).toContain('Checked by Attesta only');
    // At most three lines, each within the card (estimated widths), the last cut with … when needed.
    const lines = wrapLines('Massachusetts Institute of Technology, School of Engineering and Applied Sciences, Department of Ocean Engineering', 900 / 42, 3);
    expect(lines).toHaveLength(3);
    expect(lines[2].endsWith('…')).toBe(true);
    expect(wrapLines('W'.repeat(100), 10, 3).every((l) => l.length <= 10)).toBe(true);
    expect(wrapLines('Harbor Institute', 20, 3)).toEqual(['Harbor Institute']);
  });

  it('answers 404 for unknown or malformed ids and refuses to serve corrupted bytes', async () => {
    expect((await fetch(`${base}/permanent/${'0'.repeat(64)}`)).status).toBe(404);
    expect((await fetch(`${base}/permanent/not-an-id`)).status).toBe(404);
    expect((await fetch(`${base}/permanent/..%2F..%2Fattesta.sqlite`)).status).toBe(404);
    const { id, url } = await putOnce(db, store, new TextEncoder().encode('{"a":1}'), 'application/json');
    fs.writeFileSync(path.join(dir, 'permanent', id), '{"a":2}');
    expect((await fetch(url)).status).toBe(500);
  });
});

describe('names and links', () => {
  it('keeps the on-chain name at most 32 characters, cut with …', async () => {
    expect(shortenName('Short title')).toBe('Short title');
    const long = shortenName('Advanced Certificate of Professional Achievement in Marine Robotics');
    expect(Array.from(long)).toHaveLength(32);
    expect(long.endsWith('…')).toBe(true);
    expect(Array.from(shortenName('🎓'.repeat(40)))).toHaveLength(32); // code points, never half an emoji
    // A long uri leaves less room: the name shrinks so the transaction still fits 1232 bytes.
    const p = { payer: PublicKey.unique(), holder: Keypair.generate().publicKey, hash: new Uint8Array(32).fill(7), programId: PublicKey.unique() };
    const short = fitOnchainName('X'.repeat(80), await mintTxSize({ ...p, uri: `https://a.example/permanent/${'f'.repeat(64)}` }))!;
    expect(short.length).toBe(32);
    const squeezed = fitOnchainName('X'.repeat(80), await mintTxSize({ ...p, uri: `https://${'a'.repeat(40)}.example/permanent/${'f'.repeat(64)}` }));
    expect(squeezed!.length).toBeLessThan(32);
    expect(fitOnchainName('X'.repeat(80), await mintTxSize({ ...p, uri: `https://a.example/${'f'.repeat(300)}` }))).toBeNull();
  });

  it('links mint addresses and transactions to the explorer for every cluster', () => {
    const a = 'So11111111111111111111111111111111111111112';
    expect(explorerAddressUrl(a, 'mainnet-beta')).toBe(`https://explorer.solana.com/address/${a}`);
    expect(explorerAddressUrl(a, 'devnet')).toBe(`https://explorer.solana.com/address/${a}?cluster=devnet`);
    expect(explorerTxUrl('5sig', 'testnet')).toBe('https://explorer.solana.com/tx/5sig?cluster=testnet');
    // A local chain is not reachable through Solana Explorer from a visitor's browser: the app's own explorer shows it.
    expect(explorerAddressUrl(a, { inApp: 'https://attesta.example/' })).toBe(`https://attesta.example/explorer/address/${a}`);
    expect(explorerTxUrl('5sig', { inApp: '' })).toBe('/explorer/tx/5sig');
    expect(explorerClusterFor({ rpcUrl: null, publicBaseUrl: 'https://attesta.example/' })).toEqual({ inApp: 'https://attesta.example/' });
    expect(explorerClusterFor({ rpcUrl: 'https://api.devnet.solana.com', publicBaseUrl: 'x' })).toBe('devnet');
    expect(explorerClusterFor({ rpcUrl: 'https://api.mainnet-beta.solana.com/', publicBaseUrl: 'x' })).toBe('mainnet-beta');
    expect(explorerClusterFor({ rpcUrl: 'http://127.0.0.1:8899', publicBaseUrl: 'x' })).toEqual({ inApp: 'x' });
  });
});
