// Hostile files through every upload path, over real HTTP on the in-process server: tRPC
// certificate.create, REST POST /api/v1/certificates, tRPC profile.uploadPhoto and public.verifyFile.
// Every hostile file is refused with a 4xx and a message that says what to fix, nothing is written,
// the server keeps answering and its memory stays bounded. Hostile *names* are accepted (the
// bytes are fine) but stored sanitised and served with a Content-Disposition that cannot break.
import fs from 'node:fs';
import path from 'node:path';
import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../src/app';
import { certForm, footprint, makeClient, makePdf, nameWallet, newWallet, startTestServer, tmpDataDir, TEST_HOLDER_NAME } from './helpers';
import * as H from './hostile-support/files';

let server: Server;
let browser: ReturnType<typeof makeClient>;
let restToken = '';
let rssBefore = 0;
const details = { title: 'Certificate of Completion', institution_name: 'Hostile Input Academy', program_name: 'Security', issue_date: '2025-05-05' };

beforeAll(async () => {
  // Every case is a refused upload from one holder: their pace is attack-upload-parse.test.ts's subject.
  const many = '100000';
  server = await startTestServer(tmpDataDir(), { ATTESTA_WORKER: 'false', API_RATE_LIMIT_PER_MIN: '1000', REFUSED_UPLOAD_LIMIT_PER_WALLET: many, REFUSED_UPLOAD_LIMIT_PER_IP: many });
  browser = makeClient(server.url);
  const w = newWallet();
  const { message } = await browser.client.auth.nonce.mutate({ address: w.address });
  await browser.client.auth.signIn.mutate({ address: w.address, message, signature: w.sign(message) });
  await browser.client.profile.update.mutate({ full_name: TEST_HOLDER_NAME });
  // A second holder on REST (bearer connect token), like an integration would use it.
  const rw = newWallet();
  const n = await (await post('/api/v1/auth/nonce', { wallet_address: rw.address })).json();
  const c = await (await post('/api/v1/auth/connect', { wallet_address: rw.address, message: n.message, signature: rw.sign(n.message) })).json();
  restToken = c.token;
  await nameWallet(server.url, rw);
  expect(restToken).toBeTruthy();
  global.gc?.();
  rssBefore = process.memoryUsage().rss;
});
afterAll(async () => {
  await server?.close();
});

function post(p: string, body: unknown) {
  return fetch(`${server.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** The refusal as a browser sees it: HTTP status and message. */
async function refusal(p: Promise<unknown>): Promise<{ status: number; message: string }> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof TRPCClientError)) throw new Error(`expected a refusal, got ${err === null ? 'success' : String(err)}`);
  return { status: err.data?.httpStatus as number, message: err.message };
}

async function everythingWritten() {
  const db = server.services.db;
  const users = await db.selectFrom('user').select(['profile_image_key']).execute();
  return { ...(await footprint(server)), photos: users.filter((u) => u.profile_image_key).length };
}

/** Liveness between cases: a plain route and a database-backed tRPC query both answer. */
async function stillServing() {
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  expect(await browser.client.certificate.stats.query()).toBeTruthy();
}

interface Case {
  name: string;
  file: () => Promise<Uint8Array> | Uint8Array;
  fileName: string;
  /** What the certificate paths answer (status and message). */
  certificate: [number, RegExp];
  /** What the photo upload answers. */
  photo: [number, RegExp];
}

const DAMAGED = (why: string) => new RegExp(`^This PDF is damaged or incomplete \\(${why}\\)\\. Please export it again and re-upload\\.$`);
const PDF_AS_PHOTO: [number, RegExp] = [415, /^This photo is a PDF, which is not accepted\. Please upload a JPG, PNG, GIF or WEBP file\.$/];
const TOO_BIG = (w: number, h: number): [number, RegExp] => [400, new RegExp(`^This image is too large \\(${w} × ${h} pixels\\)\\. The maximum is 40 megapixels; please resize it and re-upload\\.$`)];

const ANIMATED = (what: 'photo' | 'image', frames: number, w: number, h: number, mpx: number) =>
  new RegExp(`^This animated ${what} has ${frames} frames of ${w} × ${h} pixels \\(${mpx} megapixels in all\\)\\. The maximum is 40 megapixels for all frames together; please upload a still (photo|image)`);

const CASES: Case[] = [
  { name: 'PDF with /OpenAction JavaScript (in an object stream)', file: H.pdfWithOpenActionJavaScript, fileName: 'js.pdf', certificate: [400, /^This PDF contains JavaScript, which a certificate cannot carry\. Please export it again without scripts/], photo: PDF_AS_PHOTO },
  { name: 'PDF with document-level JavaScript (/Names)', file: H.pdfWithNamedJavaScript, fileName: 'named-js.pdf', certificate: [400, /^This PDF contains JavaScript/], photo: PDF_AS_PHOTO },
  { name: 'PDF with a /Launch action', file: H.pdfWithLaunchAction, fileName: 'launch.pdf', certificate: [400, /^This PDF contains an action that starts another program \(Launch\).*without actions/], photo: PDF_AS_PHOTO },
  { name: 'PDF with /EmbeddedFiles', file: H.pdfWithEmbeddedFile, fileName: 'attached.pdf', certificate: [400, /^This PDF contains attached files, which a certificate cannot carry\. Please remove the attachments/], photo: PDF_AS_PHOTO },
  { name: 'PDF with 5,000 pages', file: () => H.pdfWithPages(5000), fileName: 'long.pdf', certificate: [400, /^This PDF has more than 100 pages\. A certificate can have at most 100 pages; please upload only the certificate's pages\.$/], photo: PDF_AS_PHOTO },
  { name: 'PDF whose /Count says 1 but holds 5,000 pages', file: () => H.pdfLyingCount(5000), fileName: 'lying.pdf', certificate: [400, /^This PDF has more than 100 pages/], photo: PDF_AS_PHOTO },
  { name: 'PDF cut mid-stream (no xref, no trailer)', file: H.truncatedPdf, fileName: 'cut.pdf', certificate: [400, DAMAGED('the end of the file is missing')], photo: PDF_AS_PHOTO },
  { name: 'PDF whose /Pages /Kids contain itself', file: H.pdfPagesCycle, fileName: 'kids.pdf', certificate: [400, DAMAGED('its page tree loops back on itself')], photo: PDF_AS_PHOTO },
  { name: 'PDF with intermediate /Pages nodes in a loop', file: H.pdfParentLoop, fileName: 'nodes.pdf', certificate: [400, DAMAGED('its page tree loops back on itself')], photo: PDF_AS_PHOTO },
  { name: 'PDF whose page /Parent chain loops', file: H.pdfPageParentCycle, fileName: 'parent.pdf', certificate: [400, DAMAGED('its page tree loops back on itself')], photo: PDF_AS_PHOTO },
  { name: 'PDF whose xref /Prev points to itself', file: H.pdfXrefPrevLoop, fileName: 'prev.pdf', certificate: [400, DAMAGED('its cross-reference table points back to itself')], photo: PDF_AS_PHOTO },
  { name: 'PDF with arrays nested 100,000 deep', file: () => H.pdfDeepArrays(100_000), fileName: 'deep.pdf', certificate: [400, DAMAGED('its structure is nested too deeply')], photo: PDF_AS_PHOTO },
  { name: 'PDF with arrays nested 500 deep (parseable)', file: () => H.pdfDeepArrays(500), fileName: 'deep500.pdf', certificate: [400, DAMAGED('its structure is nested too deeply')], photo: PDF_AS_PHOTO },
  { name: 'PDF with dictionaries nested 50,000 deep', file: () => H.pdfDeepDicts(50_000), fileName: 'deepdict.pdf', certificate: [400, DAMAGED('its structure is nested too deeply')], photo: PDF_AS_PHOTO },
  {
    name: 'PDF whose content stream inflates to 300 MB (a decompression bomb of ~300 KB)',
    file: () => H.pdfFlateBomb(300_000_000),
    fileName: 'bomb.pdf',
    certificate: [400, /^This PDF is too complex to check: its compressed contents expand to more than 50 MB when opened \(a certificate's take a few MB\)\. Please export it again \(for example with "Print to PDF"\) and re-upload\.$/],
    photo: PDF_AS_PHOTO,
  },
  { name: 'PNG header claiming 100,000 × 100,000', file: () => H.pngHeaderBomb(100_000, 100_000), fileName: 'bomb.png', certificate: TOO_BIG(100_000, 100_000), photo: TOO_BIG(100_000, 100_000) },
  { name: 'real PNG pixel bomb, 20,000 × 20,000 black (400 MB decoded)', file: () => H.pngPixelBomb(20_000, 20_000), fileName: 'real-bomb.png', certificate: TOO_BIG(20_000, 20_000), photo: TOO_BIG(20_000, 20_000) },
  { name: 'JPEG header claiming 65,000 × 65,000', file: H.jpegHeaderBomb, fileName: 'bomb.jpg', certificate: TOO_BIG(65_000, 65_000), photo: TOO_BIG(65_000, 65_000) },
  { name: 'WEBP header claiming 16,383 × 16,383', file: H.webpHeaderBomb, fileName: 'bomb.webp', certificate: TOO_BIG(16_383, 16_383), photo: TOO_BIG(16_383, 16_383) },
  {
    name: 'real PNG of 5,000 × 5,000 as a photo (fine for a certificate page, not for an avatar)',
    file: () => H.pngPixelBomb(5000, 5000),
    fileName: 'big-avatar.png',
    certificate: [0, /accepted/], // checked in its own test below: it is a valid certificate image
    photo: [400, /^This photo is too large \(5000 × 5000 pixels\)\. The maximum is 4096 × 4096 pixels; please resize it and re-upload\.$/],
  },
  {
    name: 'animated GIF, 12 frames of 2,000 × 2,000 (48 Mpx in all, each frame fine)',
    file: () => H.animatedImage('gif', 2000, 2000, 12),
    fileName: 'frames.gif',
    certificate: [415, /^This file is a GIF image, which is not accepted\. Please upload a PDF, JPG, JPEG, PNG or WEBP file\.$/],
    photo: [400, ANIMATED('photo', 12, 2000, 2000, 48)],
  },
  {
    name: 'animated WEBP, 12 frames of 2,000 × 2,000 (48 Mpx in all, each frame fine)',
    file: () => H.animatedImage('webp', 2000, 2000, 12),
    fileName: 'frames.webp',
    certificate: [400, ANIMATED('image', 12, 2000, 2000, 48)],
    photo: [400, ANIMATED('photo', 12, 2000, 2000, 48)],
  },
  { name: '1-byte file', file: () => new Uint8Array([0x25]), fileName: 'one.pdf', certificate: [415, /^This file type is not supported\. Please upload a PDF, JPG, JPEG, PNG or WEBP file\.$/], photo: [415, /^This photo type is not supported\./] },
  { name: 'PNG renamed .pdf', file: H.smallPng, fileName: 'diploma.pdf', certificate: [400, /^This file is named \.pdf but its content is a PNG image\. Please upload the original file\.$/], photo: [400, /^This file is named \.pdf but its content is a PNG image/] },
];

const built = new Map<string, Uint8Array>();
const bytesOf = async (c: Case) => {
  if (!built.has(c.name)) built.set(c.name, await c.file());
  return built.get(c.name)!;
};

describe('hostile files on every upload path', () => {
  for (const c of CASES.filter((x) => x.certificate[0] !== 0)) {
    it(`certificate.create (tRPC) refuses: ${c.name}`, async () => {
      const before = await everythingWritten();
      const r = await refusal(browser.client.certificate.create.mutate(certForm(details, { bytes: await bytesOf(c), name: c.fileName })));
      // The REST mapping gives 415 for a wrong type; tRPC says BAD_REQUEST for every file refusal.
      expect(r.status).toBe(400);
      expect(r.message).toMatch(c.certificate[1]);
      expect(await everythingWritten()).toEqual(before);
      await stillServing();
    });

    it(`POST /api/v1/certificates (REST) refuses: ${c.name}`, async () => {
      const before = await everythingWritten();
      const fd = new FormData();
      for (const [k, v] of Object.entries(details)) fd.set(k, v);
      fd.set('file', new File([(await bytesOf(c)) as BlobPart], c.fileName, { type: 'application/octet-stream' }));
      const res = await fetch(`${server.url}/api/v1/certificates`, { method: 'POST', headers: { authorization: `Bearer ${restToken}` }, body: fd });
      const body = await res.json();
      expect(res.status).toBe(c.certificate[0]);
      expect(body.error.message).toMatch(c.certificate[1]);
      expect(body.error.fields).toEqual({ file: body.error.message });
      expect(await everythingWritten()).toEqual(before);
      await stillServing();
    });
  }

  for (const c of CASES) {
    it(`profile.uploadPhoto refuses: ${c.name}`, async () => {
      const before = await everythingWritten();
      const fd = new FormData();
      fd.set('photo', new File([(await bytesOf(c)) as BlobPart], c.fileName, { type: 'image/png' }));
      const r = await refusal(browser.client.profile.uploadPhoto.mutate(fd));
      // tRPC reports every file refusal as BAD_REQUEST; the photo message still names the problem.
      expect(r.status).toBe(400);
      expect(r.message).toMatch(c.photo[1]);
      expect((await browser.client.profile.get.query()).profile_image_url).toBeNull();
      expect(await everythingWritten()).toEqual(before);
      await stillServing();
    });
  }

  it('public.verifyFile only hashes (never parses) a hostile file: "not registered", nothing written', async () => {
    const before = await everythingWritten();
    for (const c of CASES) {
      const bytes = await bytesOf(c);
      const fd = new FormData();
      fd.set('file', new File([bytes as BlobPart], c.fileName));
      const verdict = await browser.client.public.verifyFile.mutate(fd);
      expect(verdict.status, c.name).toBe('not_found');
    }
    expect(await everythingWritten()).toEqual(before);
    await stillServing();
  });

  it('a zero-byte file is refused on every path with the field named', async () => {
    const before = await everythingWritten();
    const empty = () => new File([], 'empty.pdf', { type: 'application/pdf' });
    const create = await refusal(browser.client.certificate.create.mutate(certForm(details, { bytes: new Uint8Array(0), name: 'empty.pdf' })));
    expect(create).toEqual({ status: 400, message: expect.stringMatching(/Certificate file is required/) });
    const photoForm = new FormData();
    photoForm.set('photo', empty());
    expect((await refusal(browser.client.profile.uploadPhoto.mutate(photoForm))).status).toBe(400);
    const verifyForm = new FormData();
    verifyForm.set('file', empty());
    expect(await refusal(browser.client.public.verifyFile.mutate(verifyForm))).toEqual({ status: 400, message: expect.stringMatching(/A file is required/) });
    const fd = new FormData();
    for (const [k, v] of Object.entries(details)) fd.set(k, v);
    fd.set('file', empty());
    const res = await fetch(`${server.url}/api/v1/certificates`, { method: 'POST', headers: { authorization: `Bearer ${restToken}` }, body: fd });
    expect(res.status).toBe(400);
    expect((await res.json()).error.fields.file).toBe('Certificate file is required');
    expect(await everythingWritten()).toEqual(before);
  });

  it('a large but honest image (5,000 × 5,000) is a valid certificate: converted without a JS decode', async () => {
    const c = CASES.find((x) => x.fileName === 'big-avatar.png')!;
    const cert = await browser.client.certificate.create.mutate(certForm(details, { bytes: await bytesOf(c), name: 'scan.png' }));
    expect(cert.file_name).toBe('scan.pdf');
    const res = await browser.fetch(`${server.url}/files/certificates/${cert.id}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('the server process memory stayed bounded through the whole sweep', () => {
    // The test server runs in this process. Loose bound: a decoded 400 Mpx bomb alone would be 400 MB+,
    // the 100,000² header 10 GB; what the sweep really costs is parsers and buffers (tens of MB).
    global.gc?.();
    const grownMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
    expect(grownMb).toBeLessThan(350);
  });
});

describe('animated images within the limit', () => {
  it('an animated photo of a few small frames is accepted and keeps its frames', async () => {
    const { default: sharp } = await import('sharp');
    // Five different frames (identical ones would be merged when the photo is re-encoded).
    const frames = await Promise.all([0, 1, 2, 3, 4].map((i) => sharp({ create: { width: 64, height: 64, channels: 3, background: { r: i * 60, g: 80, b: 200 } } }).png().toBuffer()));
    const gif = await sharp(frames, { join: { animated: true } }).gif().toBuffer();
    const fd = new FormData();
    fd.set('photo', new File([new Uint8Array(gif)], 'wave.gif', { type: 'image/gif' }));
    const me = await browser.client.profile.uploadPhoto.mutate(fd);
    const res = await fetch(`${server.url}${me.profile_image_url}`);
    expect(res.status).toBe(200);
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).pages).toBe(5);
  });

  it('an animated WEBP certificate within the limit becomes a one-page PDF', async () => {
    const cert = await browser.client.certificate.create.mutate(certForm(details, { bytes: await H.animatedImage('webp', 600, 400, 3), name: 'moving.webp' }));
    expect(cert.file_name).toBe('moving.pdf');
  });
});

const CONTROL_OR_BIDI = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

function expectSafeName(stored: string) {
  expect(stored).toMatch(/\.pdf$/);
  expect(stored).not.toMatch(/[/\\]/);
  expect(stored).not.toMatch(CONTROL_OR_BIDI);
  expect(stored).not.toMatch(/["<>:|?*]/);
  expect(stored.startsWith('.')).toBe(false);
  expect([...stored].length).toBeLessThanOrEqual(124);
}

describe('hostile file names', () => {
  for (const [label, name] of Object.entries(H.HOSTILE_NAMES)) {
    it(`stores a safe name and serves a valid Content-Disposition: ${label}`, async () => {
      const pdf = await makePdf(['Certificate of Completion', 'Hostile Input Academy', 'Security']);
      const cert = await browser.client.certificate.create.mutate(certForm(details, { bytes: pdf, name, type: 'application/pdf' }));
      const stored = cert.file_name;
      expectSafeName(stored);

      // The REST upload stores the same kind of name.
      const fd = new FormData();
      for (const [k, v] of Object.entries(details)) fd.set(k, v);
      fd.set('file', new File([(await makePdf(['Certificate of Completion'])) as BlobPart], name, { type: 'application/pdf' }));
      const res = await fetch(`${server.url}/api/v1/certificates`, { method: 'POST', headers: { authorization: `Bearer ${restToken}` }, body: fd });
      expect(res.status).toBe(201);
      const restRow = await server.services.db.selectFrom('certificate').select(['file_name', 'file_key']).where('id', '=', (await res.json()).id).executeTakeFirstOrThrow();
      expectSafeName(restRow.file_name);
      expect(restRow.file_key).toMatch(/^certificates\/c_[A-Za-z0-9_-]+\.pdf$/);
      // Never a path: the blob lives under the generated key, and nothing landed outside uploads/.
      const row = await server.services.db.selectFrom('certificate').select(['file_key']).where('id', '=', cert.id).executeTakeFirstOrThrow();
      expect(row.file_key).toBe(`certificates/${cert.id}.pdf`);
      const dataDir = server.services.config.dataDir;
      expect(fs.existsSync(path.join(dataDir, 'etc'))).toBe(false);
      expect(fs.existsSync(path.join(path.dirname(dataDir), 'etc', 'passwd.pdf'))).toBe(false);

      for (const q of ['', '?download=1']) {
        const res = await browser.fetch(`${server.url}/files/certificates/${cert.id}${q}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/pdf');
        expect(res.headers.get('set-cookie')).toBeNull(); // no header injected through the name
        const cd = res.headers.get('content-disposition')!;
        expect(cd).toMatch(new RegExp(`^${q ? 'attachment' : 'inline'}; filename="[\\x20-\\x21\\x23-\\x5b\\x5d-\\x7e]*"; filename\\*=UTF-8''[A-Za-z0-9%!._~-]*$`));
        // The exact stored name round-trips through filename*.
        expect(decodeURIComponent(cd.split("filename*=UTF-8''")[1])).toBe(stored);
        expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);
      }
    });
  }

  it('a NUL byte in the name is refused as bad input on both paths (PostgreSQL cannot store it), nothing written', async () => {
    const before = await everythingWritten();
    const pdf = await makePdf(['Certificate of Completion']);
    const r = await refusal(browser.client.certificate.create.mutate(certForm(details, { bytes: pdf, name: H.NUL_NAME, type: 'application/pdf' })));
    expect(r).toEqual({ status: 400, message: 'Text must not contain NUL characters (\\u0000).' });
    const fd = new FormData();
    for (const [k, v] of Object.entries(details)) fd.set(k, v);
    fd.set('file', new File([pdf as BlobPart], H.NUL_NAME, { type: 'application/pdf' }));
    const res = await fetch(`${server.url}/api/v1/certificates`, { method: 'POST', headers: { authorization: `Bearer ${restToken}` }, body: fd });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/NUL/);
    expect(await everythingWritten()).toEqual(before);
  });

  it('a photo is stored under a generated key whatever its name says', async () => {
    const fd = new FormData();
    fd.set('photo', new File([(await H.smallPng()) as BlobPart], '../../../etc/passwd.png', { type: 'image/png' }));
    const me = await browser.client.profile.uploadPhoto.mutate(fd);
    const row = await server.services.db.selectFrom('user').select(['id', 'profile_image_key']).where('id', '=', me.id).executeTakeFirstOrThrow();
    expect(row.profile_image_key).toMatch(new RegExp(`^photos/${row.id}-[a-z0-9]+\\.png$`));
    expect(fs.existsSync(path.join(path.dirname(server.services.config.dataDir), 'etc', 'passwd.png'))).toBe(false);
  });

  it('names are read as the last path segment, without the bidi trick or the claimed extension', async () => {
    const { safeFileName } = await import('../src/services/files/index.js');
    expect(safeFileName('../../etc/passwd.pdf', 'pdf')).toBe('passwd.pdf');
    expect(safeFileName('..\\..\\boot.ini.pdf', 'pdf')).toBe('boot.ini.pdf');
    expect(safeFileName('C:\\Windows\\System32\\drivers\\etc\\hosts.pdf', 'pdf')).toBe('hosts.pdf');
    expect(safeFileName('\u202Efdp.exe', 'pdf')).toBe('fdp.pdf');
    expect(safeFileName('diploma.pdf\u0000.exe', 'pdf')).toBe('diploma.pdf.pdf');
    expect(safeFileName('....pdf', 'pdf')).toBe('certificate.pdf');
    expect(safeFileName('', 'pdf')).toBe('certificate.pdf');
    expect(safeFileName('Zeugnis – Müller 🎓.png', 'pdf')).toBe('Zeugnis – Müller 🎓.pdf');
    expect([...safeFileName(`${'😀'.repeat(300)}.pdf`, 'pdf')]).toHaveLength(124); // never splits a surrogate pair
  });
});
