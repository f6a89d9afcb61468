import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { closeOcr, ocrWorkerStarted, OcrTimeoutError, OCR_MAX_SIDE, OCR_MIN_SIDE, prepareForOcr, recognizeText } from './index.js';
import { renderCertificateImage } from './test-fixtures.js';

afterAll(() => closeOcr());

describe('prepareForOcr', () => {
  it('enlarges small images (at most ×4) and reduces huge ones, keeping the aspect ratio', async () => {
    const small = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#fff' } }).png().toBuffer();
    expect(await prepareForOcr(small)).toMatchObject({ width: 256, height: 192 });
    const mid = await sharp({ create: { width: 1000, height: 500, channels: 3, background: '#fff' } }).png().toBuffer();
    expect(await prepareForOcr(mid)).toMatchObject({ width: OCR_MIN_SIDE, height: 1000 });
    const big = await sharp({ create: { width: 8000, height: 2000, channels: 3, background: '#fff' } }).png().toBuffer();
    const r = await prepareForOcr(big);
    expect(r).toMatchObject({ width: OCR_MAX_SIDE, height: 1000 });
    expect((await sharp(r.png).metadata()).channels).toBe(1);
  });

  it('puts transparent images on white (black text on transparent stays readable)', async () => {
    const img = await renderCertificateImage(['Certificate'], { transparent: true, width: 400, height: 300 });
    expect((await sharp(img).metadata()).hasAlpha).toBe(true);
    const { png } = await prepareForOcr(img);
    const { data } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    const white = data.filter((v) => v > 200).length / data.length;
    expect(white).toBeGreaterThan(0.9);
  });

  it('accepts raw pixels and refuses an empty image', async () => {
    const raw = { data: new Uint8Array(300 * 200).fill(255), width: 300, height: 200, channels: 1 as const };
    expect(await prepareForOcr(raw)).toMatchObject({ width: 1200, height: 800 }) // ×4 at most;
    await expect(prepareForOcr(new Uint8Array([1, 2, 3]))).rejects.toThrow();
  });
});

describe('recognizeText', () => {
  it('reads rendered text offline with one shared worker, and recovers after a timeout', async () => {
    const img = await renderCertificateImage(['Certificate of Completion', 'Northwind University', 'Medieval History']);
    const r = await recognizeText(img);
    expect(r.text).toMatch(/Certificate of Completion/);
    expect(r.text).toMatch(/Northwind University/);
    expect(r.text).toMatch(/Medieval History/);
    expect(r.confidence).toBeGreaterThan(70);
    expect(r.ms).toBeGreaterThan(0);
    expect(r.width).toBe(OCR_MIN_SIDE);
    expect(ocrWorkerStarted()).toBe(true);

    // Past the budget the worker is killed (a running recognition cannot be cancelled otherwise).
    await expect(recognizeText(img, { timeoutMs: 5 })).rejects.toBeInstanceOf(OcrTimeoutError);
    expect(ocrWorkerStarted()).toBe(false);

    // Bad input fails that call only; the next one starts a fresh worker.
    await expect(recognizeText(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).rejects.toThrow();
    const again = await recognizeText(await renderCertificateImage(['Diploma in Nursing'], { width: 800, height: 300 }));
    expect(again.text).toMatch(/Diploma in Nursing/);

    await closeOcr();
    expect(ocrWorkerStarted()).toBe(false);
  });
});
