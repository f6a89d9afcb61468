import { afterAll, describe, expect, it } from 'vitest';
import { makeImage, makePdf } from '../../../test/fixtures/files.js';
import { toPdf } from '../files/index.js';
import { closeOcr } from '../ocr/index.js';
import { makeBilevelScanPdf, renderCertificateImage } from '../ocr/test-fixtures.js';
import { checkDocument, editDistance, textNamesFuzzy, normaliseText } from './index.js';

const claims = {
  title: 'Certificate of Completion',
  institution_name: 'Université de Montréal',
  program_name: 'Applied Machine-Learning Fundamentals',
};
const lines = ['Certificate of Completion', 'awarded to Jane Doe', 'Université de Montréal', 'Applied Machine-Learning Fundamentals'];

afterAll(() => closeOcr());

describe('checkDocument on PDFs without a text layer (OCR)', () => {
  it('reads a converted PNG certificate and finds the claimed title, institution and program', async () => {
    const pdf = await toPdf(await renderCertificateImage(lines), 'png');
    const r = await checkDocument(pdf, claims);
    expect(r.textSource).toBe('ocr');
    expect(r.textMatches).toEqual({ title: true, institution: true, program: true });
    expect(r.text).toMatch(/Certificate of Completion/);
    expect(r.ocrConfidence).toBeGreaterThan(70);
    expect(r.ocrPages).toBe(1);
    expect(r.ocrMs).toBeGreaterThan(0);
    expect(r.ocrNote).toBeUndefined();
    expect(r.pagesRead).toBe(1);
  });

  it('reports a claim the image does not name (JPEG, embedded as DCT)', async () => {
    const pdf = await toPdf(await renderCertificateImage(lines, { format: 'jpeg' }), 'jpeg');
    const r = await checkDocument(pdf, { ...claims, institution_name: 'Springfield Community College', program_name: 'Applied Machine-Learning Foundations' });
    expect(r.textSource).toBe('ocr');
    expect(r.textMatches).toEqual({ title: true, institution: false, program: false });
  });

  it('flags a claim a scan names only approximately (OCR tolerance), and not one it names exactly', async () => {
    const pdf = await toPdf(await renderCertificateImage(lines), 'png');
    const exact = await checkDocument(pdf, claims);
    expect(exact.tamperSignals.filter((s) => s.startsWith('Read from an image (OCR)'))).toEqual([]);
    // One letter off in 22 ("Montreal" read, "Montreul" claimed): within OCR's tolerance, so it matches — and says so.
    const near = await checkDocument(pdf, { ...claims, institution_name: 'Université de Montreul' });
    expect(near.textMatches).toEqual({ title: true, institution: true, program: true });
    expect(near.tamperSignals).toContain(
      'Read from an image (OCR): the claimed institution matches the text read only approximately (some letters differ), so check it against the document.',
    );
  });

  it('reads a grainy 1-bit scanned page, choosing the page image over a smaller one drawn on it', async () => {
    const pdf = await makeBilevelScanPdf(await renderCertificateImage(lines, { width: 1600, height: 1130, noise: true }));
    const r = await checkDocument(pdf, claims);
    expect(r.textSource).toBe('ocr');
    expect(r.textMatches).toEqual({ title: true, institution: true, program: true });
  });

  it('reads the image when the text layer is only a stray page number', async () => {
    const { PDFDocument, StandardFonts } = await import('pdf-lib');
    const doc = await PDFDocument.load(await toPdf(await renderCertificateImage(lines, { format: 'jpeg' }), 'jpeg'));
    doc.getPage(0).drawText('p. 1', { x: 5, y: 5, size: 6, font: await doc.embedFont(StandardFonts.Helvetica) });
    const r = await checkDocument(await doc.save(), claims);
    expect(r.textSource).toBe('ocr');
    expect(r.text).toMatch(/^p\. 1\n/);
    expect(r.textMatches).toEqual({ title: true, institution: true, program: true });
  });

  it('an image without text leaves the document unread (textSource none), not mismatched', async () => {
    const pdf = await toPdf(await makeImage('png', 640, 480), 'png');
    const r = await checkDocument(pdf, claims);
    expect(r.textSource).toBe('none');
    expect(r.text).toBe('');
    expect(r.ocrNote).toMatch(/too little text/);
    expect(r.textMatches).toEqual({ title: false, institution: false, program: false });
  });

  it('gives up past the OCR budget without failing the check', async () => {
    const pdf = await toPdf(await renderCertificateImage(lines, { format: 'webp' }), 'webp');
    const started = Date.now();
    const r = await checkDocument(pdf, claims, { ocrTimeoutMs: 50 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.textSource).toBe('none');
    expect(r.text).toBe('');
    expect(r.ocrNote).toMatch(/OCR stopped after 50 ms/);
  });

  it('does not OCR when asked not to, nor when the PDF has a text layer', async () => {
    const pdf = await toPdf(await makeImage('png', 640, 480), 'png');
    const off = await checkDocument(pdf, claims, { ocr: false });
    expect(off).toMatchObject({ textSource: 'none', text: '' });
    expect(off.ocrMs).toBeUndefined();
    const text = await checkDocument(await makePdf({ lines }), claims);
    expect(text).toMatchObject({ textSource: 'pdf', textMatches: { title: true, institution: true, program: true } });
    expect(text.ocrMs).toBeUndefined();
  });
});

describe('fuzzy matching of OCR text', () => {
  it('tolerates about one misread letter per 8, split and joined words', () => {
    const t = normaliseText('CERTIFlCATE OF COMPLETlON\nUniversite deMontreal Applied Machine Learnlng Fundamentals');
    expect(textNamesFuzzy(t, 'Certificate of Completion')).toBe(true); // l for i, twice
    expect(textNamesFuzzy(normaliseText('Certificate of Cornpletion'), 'Certificate of Completion')).toBe(true); // rn for m
    expect(textNamesFuzzy(normaliseText('Certlficate of Cornpletion'), 'Certificate of Completion')).toBe(false); // 3 edits in 23 letters
    expect(textNamesFuzzy(t, 'Université de Montréal')).toBe(true); // "de" joined to the next word
    expect(textNamesFuzzy(t, 'Applied Machine-Learning Fundamentals')).toBe(true);
  });

  it('does not accept a different name that merely looks similar', () => {
    const t = normaliseText('Howard University  Bachelor of Science  Applied Machine Learning Foundations');
    expect(textNamesFuzzy(t, 'Harvard University')).toBe(false);
    expect(textNamesFuzzy(t, 'Applied Machine Learning Fundamentals')).toBe(false);
    expect(textNamesFuzzy(t, 'Bachelor of Arts')).toBe(false);
    expect(textNamesFuzzy(normaliseText('MlT'), 'MIT')).toBe(false); // short claims: exact only
    expect(textNamesFuzzy(t, '')).toBe(false);
  });

  it('edit distance, with an early exit past the limit', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
    expect(editDistance('abcdefgh', 'zzzzzzzz', 2)).toBe(3);
  });
});
