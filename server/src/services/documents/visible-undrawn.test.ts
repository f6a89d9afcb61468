// A page that cannot be drawn (no canvas, a drawing error, out of time): its text cannot be told
// visible or not, so it is not compared, and the result says why. Read in this process (the reader
// process is replaced by readPdf itself) so the drawing can be made to fail.
import { describe, expect, it, vi } from 'vitest';
import { makePdf } from '../../../test/fixtures/files.js';

vi.mock('./visible.js', async (original) => {
  const real = await original<typeof import('./visible.js')>();
  return { ...real, visibleText: vi.fn(async () => Promise.reject(new real.PageNotDrawnError('pages cannot be drawn here (@napi-rs/canvas: not installed)'))) };
});
vi.mock('./readers.js', async (original) => {
  const real = await original<typeof import('./readers.js')>();
  const { readPdf } = await import('./read.js');
  return { ...real, readInReader: (bytes: Uint8Array, opts: import('./read.js').ReadOptions) => readPdf(bytes, opts, { phase: () => undefined }) };
});

const { checkDocument } = await import('./check.js');

describe('a page that cannot be drawn', () => {
  it('leaves its text out of the comparison, with the reason as a tamper signal and visibilityNote', async () => {
    const pdf = await makePdf({ lines: ['Certificate of Completion', 'Université de Montréal', 'Applied Machine-Learning Fundamentals'] });
    const r = await checkDocument(pdf, { title: 'Certificate of Completion', institution_name: 'Université de Montréal', program_name: 'Applied Machine-Learning Fundamentals' }, { ocr: false });
    const why = 'Page 1 could not be drawn (pages cannot be drawn here (@napi-rs/canvas: not installed)), so its text was not compared.';
    expect(r.textMatches).toEqual({ title: false, institution: false, program: false });
    // Nothing was judged: no text to compare (pending in the pipeline, not a mismatch), no "hidden text" claim.
    expect(r.text).toBe('');
    expect(r.textSource).toBe('none');
    expect(r.pagesRead).toBe(1);
    expect(r.pagesDrawn).toBe(0);
    expect(r.visibilityNote).toBe(why);
    expect(r.tamperSignals).toEqual([why]);
    expect(r.hiddenTextIgnored).toBeUndefined();
    expect(r.namedOnlyByHiddenText).toBeUndefined();
  });
});
