// Certificate files whose text names what the form claims (the verification pipeline reads it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import sharp from 'sharp';

export interface CertificateClaims {
  title: string;
  institution_name: string;
  program_name: string;
  issue_date: string;
  holder: string;
}

export async function certificatePdf(c: CertificateClaims, extraLine?: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(c.title);
  doc.setProducer('Attesta e2e fixture');
  doc.setCreator('Attesta e2e fixture');
  const page = doc.addPage([842, 595]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const line = (text: string, y: number, size: number, f = font) =>
    page.drawText(text, { x: 421 - f.widthOfTextAtSize(text, size) / 2, y, size, font: f, color: rgb(0.1, 0.1, 0.2) });
  line(c.institution_name, 480, 22, bold);
  line('certifies that', 430, 14);
  line(c.holder, 390, 28, bold);
  line('has been awarded the', 345, 14);
  line(c.title, 300, 26, bold);
  line(`in ${c.program_name}`, 260, 16);
  line(`Issued on ${c.issue_date}`, 200, 12);
  if (extraLine) line(extraLine, 150, 12);
  return doc.save({ useObjectStreams: false });
}

/** `noise`: a paper-grain background that makes the PNG ~1 MB, for watching upload progress. */
export async function certificatePng(c: CertificateClaims, opts: { noise?: boolean } = {}): Promise<Buffer> {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="850">
    <rect width="100%" height="100%" fill="#fffdf5"/><rect x="30" y="30" width="1140" height="790" fill="none" stroke="#1e3a8a" stroke-width="8"/>
    <g font-family="DejaVu Sans, sans-serif" text-anchor="middle" fill="#111827">
      <text x="600" y="180" font-size="40" font-weight="bold">${esc(c.institution_name)}</text>
      <text x="600" y="300" font-size="24">certifies that</text>
      <text x="600" y="380" font-size="48" font-weight="bold">${esc(c.holder)}</text>
      <text x="600" y="470" font-size="24">has completed</text>
      <text x="600" y="550" font-size="44" font-weight="bold">${esc(c.title)}</text>
      <text x="600" y="620" font-size="28">in ${esc(c.program_name)}</text>
      <text x="600" y="720" font-size="20">Issued on ${esc(c.issue_date)}</text>
    </g></svg>`;
  const text = await sharp(Buffer.from(svg)).png().toBuffer();
  if (!opts.noise) return text;
  const grain = await sharp({ create: { width: 1200, height: 850, channels: 3, background: '#ffffff', noise: { type: 'gaussian', mean: 235, sigma: 12 } } })
    .png()
    .toBuffer();
  return sharp(grain).composite([{ input: text, blend: 'multiply' }]).png().toBuffer();
}

export function tempDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'attesta-e2e-files-'));
}
