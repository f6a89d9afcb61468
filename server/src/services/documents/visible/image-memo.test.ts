// Draw B and the re-draws paint a page's images from draw A's pixels (draw.ts: ImageMemo). What they
// draw must be what pdfjs draws without it, pixel for pixel: the visibility check compares drawings.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PDFDocument, StandardFonts, degrees, rgb } from 'pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { canvasFactory, draw, ImageMemo, type Drawing } from './draw.js';
import type { Ctx } from './pdfjs-internals.js';

const pdfjsRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/** Noise, so any shift, scaling or colour difference shows in the pixels. */
async function noise(width: number, height: number, format: 'png' | 'jpeg', channels: 3 | 4 = 3): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * channels);
  let x = 12345;
  for (let i = 0; i < raw.length; i++) raw[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  const img = sharp(raw, { raw: { width, height, channels } });
  return format === 'png' ? img.png().toBuffer() : img.jpeg({ quality: 90 }).toBuffer();
}

/**
 * A page with what the memo must get right: a full-page JPEG background scaled down, the same JPEG
 * again as a thumbnail (scaled down further: its own pixels, not the background's),
 * a small PNG painted at its size (no scaling), the same PNG again at another size and rotated, a
 * PNG with transparency (large enough to be converted in two chunks, as the background is in
 * eleven), and text over and under them. (An image under a transfer function is not kept, but pdfjs
 * applies none without a browser's filters, so there is no such drawing to compare here.)
 */
async function page(): Promise<PDFPageProxy> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const p = doc.addPage([842, 595]);
  const background = await doc.embedJpg(await noise(2000, 1400, 'jpeg'));
  p.drawImage(background, { x: 0, y: 0, width: 842, height: 595 });
  p.drawImage(background, { x: 700, y: 40, width: 100, height: 70 }); // the same picture, much smaller
  p.drawText('Over the background', { x: 60, y: 500, size: 24, font, color: rgb(0, 0, 0) });
  const small = await doc.embedPng(await noise(120, 80, 'png'));
  p.drawText('Under the small picture', { x: 100, y: 320, size: 18, font });
  p.drawImage(small, { x: 90, y: 300, width: 120, height: 80 });
  p.drawImage(small, { x: 400, y: 250, width: 300, height: 40, rotate: degrees(15) });
  p.drawImage(await doc.embedPng(await noise(600, 500, 'png', 4)), { x: 600, y: 420, width: 150, height: 150 });
  const bytes = await doc.save();
  const pdf = await getDocument({
    data: bytes,
    isEvalSupported: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl: join(pdfjsRoot, 'standard_fonts') + '/',
  }).promise;
  return pdf.getPage(1);
}

async function drawn(pg: PDFPageProxy, drawing: Drawing, region = { x0: 0, y0: 0, width: 842, height: 595 }): Promise<Uint8ClampedArray> {
  const viewport = pg.getViewport({ scale: 1 });
  const canvas = canvasFactory()(region.width, region.height);
  const ctx = canvas.getContext('2d') as Ctx;
  await draw(pg, viewport, ctx, { ...region, scale: 1 } as never, drawing, Number.POSITIVE_INFINITY);
  return ctx.getImageData(0, 0, region.width, region.height).data;
}

describe('images painted again from the first drawing (ImageMemo)', () => {
  it('draws the same pixels as pdfjs alone, whole page and a region, and really serves the later drawings', async () => {
    const pg = await page();
    const plain = await drawn(pg, { mute: () => false });
    const memo = new ImageMemo();
    const first = await drawn(pg, { mute: () => false, images: memo });
    expect(memo.hits).toBe(0);
    // Every paint's pixels (five paints: RGB from the JPEG and the PNG, RGBA from the transparent
    // PNG) were converted by toCanvas, not by pdfjs: the comparison below is of that conversion.
    expect(memo.converted).toBe(5);
    const again = await drawn(pg, { mute: () => false, images: memo });
    // The background and its thumbnail, the small picture at both its sizes and the transparent one
    // came from the memo.
    expect(memo.hits).toBe(5);
    expect(Buffer.from(first).equals(Buffer.from(plain))).toBe(true);
    expect(Buffer.from(again).equals(Buffer.from(plain))).toBe(true);
    // The premise: the images are in the drawing (it is not a blank page either way).
    expect(new Set(plain.subarray(0, 4000)).size).toBeGreaterThan(50);

    // A region drawn again (the re-draws): the same pixels as that region drawn by pdfjs alone.
    const region = { x0: 250, y0: 150, width: 400, height: 300 };
    const regionPlain = await drawn(pg, { mute: () => false }, region);
    const regionMemo = await drawn(pg, { mute: () => false, images: memo }, region);
    expect(memo.hits).toBeGreaterThan(5);
    expect(Buffer.from(regionMemo).equals(Buffer.from(regionPlain))).toBe(true);

    // Muting text (draw B) with the memo: the same as pdfjs alone with the same text muted.
    const mutedPlain = await drawn(pg, { mute: () => true });
    const mutedMemo = await drawn(pg, { mute: () => true, images: memo });
    expect(Buffer.from(mutedMemo).equals(Buffer.from(mutedPlain))).toBe(true);
    expect(Buffer.from(mutedMemo).equals(Buffer.from(plain))).toBe(false); // the text is gone from it
    memo.release();
  });

  it('keeps no more than its budget: past it, images are painted as pdfjs paints them', async () => {
    const pg = await page();
    const plain = await drawn(pg, { mute: () => false });
    const tiny = new ImageMemo(1024); // no image fits
    await drawn(pg, { mute: () => false, images: tiny });
    const again = await drawn(pg, { mute: () => false, images: tiny });
    expect(tiny.hits).toBe(0);
    expect(Buffer.from(again).equals(Buffer.from(plain))).toBe(true);
  });
});
