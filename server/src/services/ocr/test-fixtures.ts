import { deflateSync } from 'node:zlib';
import { concatTransformationMatrix, drawObject, PDFDocument, popGraphicsState, pushGraphicsState } from 'pdf-lib';
import sharp from 'sharp';

/**
 * A certificate-like image with the given lines centred in large type (DejaVu, installed with
 * fonts-dejavu-core, so the SVG text really renders). Test helper for OCR.
 */
export async function renderCertificateImage(
  lines: string[],
  opts: { format?: 'png' | 'jpeg' | 'webp'; width?: number; height?: number; transparent?: boolean; noise?: boolean } = {},
): Promise<Uint8Array> {
  const { format = 'png', width = 1200, height = 850 } = opts;
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const step = Math.floor((height - 200) / Math.max(1, lines.length));
  const text = lines
    .map((l, i) => {
      const size = i === 0 ? Math.round(height / 13) : Math.round(height / 20);
      return `<text x="${width / 2}" y="${150 + i * step}" font-family="DejaVu Serif" font-size="${size}" text-anchor="middle" fill="#1d1d1f">${esc(l)}</text>`;
    })
    .join('');
  const bg = opts.transparent ? '' : '<rect width="100%" height="100%" fill="#fbf8ef"/><rect x="20" y="20" width="' + (width - 40) + '" height="' + (height - 40) + '" fill="none" stroke="#8a6d3b" stroke-width="6"/>';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${bg}${text}</svg>`;
  let img = sharp(Buffer.from(svg));
  if (opts.noise) {
    // Paper grain and a slight blur, like a photo or a cheap scan.
    const grain = await sharp({ create: { width, height, channels: 3, background: '#ffffff', noise: { type: 'gaussian', mean: 225, sigma: 25 } } }).png().toBuffer();
    img = sharp(await sharp(grain).composite([{ input: await img.png().toBuffer(), blend: 'multiply' }]).blur(0.8).png().toBuffer());
  }
  return new Uint8Array(await img.toFormat(format).toBuffer());
}

/**
 * A "scanner" PDF: the image as a 1-bit DeviceGray XObject (Flate), the way B&W scanners store
 * pages, plus a smaller plain image drawn over a corner (so the largest image must be chosen).
 * No text layer.
 */
export async function makeBilevelScanPdf(image: Uint8Array): Promise<Uint8Array> {
  const { data, info } = await sharp(image).flatten({ background: '#ffffff' }).grayscale().threshold(128).raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const rowBytes = (width + 7) >> 3;
  const packed = Buffer.alloc(rowBytes * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) if (data[y * width + x] > 127) packed[y * rowBytes + (x >> 3)] |= 0x80 >> (x & 7);
  const doc = await PDFDocument.create();
  const scan = doc.context.register(
    doc.context.stream(deflateSync(packed), { Type: 'XObject', Subtype: 'Image', Width: width, Height: height, ColorSpace: 'DeviceGray', BitsPerComponent: 1, Filter: 'FlateDecode' }),
  );
  const [w, h] = [width * 0.6, height * 0.6];
  const page = doc.addPage([w, h]);
  const name = page.node.newXObject('Scan', scan);
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(w, 0, 0, h, 0, 0), drawObject(name), popGraphicsState());
  const logo = await doc.embedPng(await sharp({ create: { width: 240, height: 240, channels: 3, background: '#8a6d3b' } }).png().toBuffer());
  page.drawImage(logo, { x: 10, y: 10, width: 60, height: 60 });
  return doc.save();
}
