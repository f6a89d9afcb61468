// Attacks on "content nobody could read is not verified" and "verified means what a verifier reads":
// the document check (services/documents/check.ts) compares the claims with the PDF's *text layer*
// and never asks whether a person looking at the page sees that text. A text layer that is
// invisible (text rendering mode 3), white, or drawn outside the page is read by the check and by no
// one else; the certificate is then recorded on chain as platform-verified, and the verifier who opens
// the file sees something else — here a blank page, or a certificate of attendance.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts, TextRenderingMode, rgb, setTextRenderingMode, pushGraphicsState, popGraphicsState } from 'pdf-lib';
import type { Server } from '../src/app';
import { certForm, makeClient, signIn, startTestServer, tmpDataDir } from './helpers';
import { finalRow } from './attack-support/world';

let server: Server;
let dir: string;

beforeAll(async () => {
  dir = tmpDataDir();
  server = await startTestServer(dir);
}, 120_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const CLAIMS = { title: 'Doctor of Philosophy', institution_name: 'Massachusetts Institute of Technology', program_name: 'Theoretical Physics', issue_date: '2022-06-01' };
const HIDDEN = [CLAIMS.institution_name, CLAIMS.title, CLAIMS.program_name];

async function pdfWith(visible: string[], hide: 'invisible' | 'white' | 'off-page') {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([842, 595]);
  visible.forEach((l, i) => page.drawText(l, { x: 60, y: 500 - 40 * i, size: 22, font }));
  HIDDEN.forEach((l, i) => {
    if (hide === 'invisible') {
      page.pushOperators(pushGraphicsState(), setTextRenderingMode(TextRenderingMode.Invisible));
      page.drawText(l, { x: 60, y: 300 - 30 * i, size: 18, font });
      page.pushOperators(popGraphicsState());
    } else if (hide === 'white') page.drawText(l, { x: 60, y: 300 - 30 * i, size: 18, font, color: rgb(1, 1, 1) });
    else page.drawText(l, { x: 2000, y: -500 - 30 * i, size: 18, font });
  });
  return doc.save();
}

async function submit(pdf: Uint8Array) {
  const c = makeClient(server.url);
  await signIn(c);
  const created = await c.client.certificate.create.mutate(certForm(CLAIMS, { bytes: pdf, name: 'phd.pdf' }));
  return finalRow(c, created.id);
}

describe('attack: text only the check can see', () => {
  // Proves: a page that shows nothing at all, with the claims in an invisible text layer (Tr 3), is
  // recorded verified ("The document names the claimed title, institution and program").
  it('a blank page whose claims are in an invisible text layer is not verified', async () => {
    const row = await submit(await pdfWith([], 'invisible'));
    expect(row.verification_status).not.toBe('verified');
  });

  // Proves: a certificate of attendance with the PhD claims in white on the white page is verified as the PhD.
  it('claims printed white on white are not verified', async () => {
    const row = await submit(await pdfWith(['Certificate of Attendance', 'Open Day 2022'], 'white'));
    expect(row.verification_status).not.toBe('verified');
  });

  // Proves: the same with the claims drawn outside the page's MediaBox (never displayed or printed).
  it('claims drawn outside the page are not verified', async () => {
    const row = await submit(await pdfWith(['Certificate of Attendance', 'Open Day 2022'], 'off-page'));
    expect(row.verification_status).not.toBe('verified');
  });
});
