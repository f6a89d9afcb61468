// Only text a person sees on the page names a claim (visible.ts): the check draws each page it reads
// and leaves out text that adds nothing visible to it.
import {
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFOperator,
  PDFRawStream,
  PDFString,
  StandardFonts,
  TextRenderingMode,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  setTextRenderingMode,
  type PDFFont,
  type PDFPage,
} from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { toPdf } from '../files/index.js';
import { closeOcr } from '../ocr/index.js';
import { renderCertificateImage } from '../ocr/test-fixtures.js';
import { HIDDEN_TEXT_NOTE, checkDocument } from './index.js';

afterAll(() => closeOcr());

const claims = { title: 'Doctor of Philosophy', institution_name: 'Massachusetts Institute of Technology', program_name: 'Theoretical Physics' };
const CLAIM_LINES = [claims.institution_name, claims.title, claims.program_name];
const ALL = { title: true, institution: true, program: true };
const NONE = { title: false, institution: false, program: false };

/** An A4 landscape certificate: `visible` lines in black, then whatever `draw` adds. */
async function certificate(draw: (page: PDFPage, font: PDFFont, doc: PDFDocument) => void | Promise<void>, visible: string[] = []): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([842, 595]);
  visible.forEach((l, i) => page.drawText(l, { x: 60, y: 520 - 36 * i, size: 22, font }));
  await draw(page, font, doc);
  return doc.save();
}

/** The claim lines at 18 pt from y = 300 down, with `style` (colour, size, opacity). */
function claimLines(page: PDFPage, font: PDFFont, style: { color?: ReturnType<typeof rgb>; size?: number; opacity?: number } = {}) {
  CLAIM_LINES.forEach((l, i) => page.drawText(l, { x: 60, y: 300 - 30 * i, size: style.size ?? 18, font, ...(style.color ? { color: style.color } : {}), ...(style.opacity !== undefined ? { opacity: style.opacity } : {}) }));
}

const op = (name: string, ...args: (number | PDFName | PDFString)[]) => PDFOperator.of(name as never, args.map((a) => (typeof a === 'number' ? PDFNumber.of(a) : a)));

describe('only visible text names a claim', () => {
  it('ignores claims in an invisible text layer (rendering mode 3) on a blank page: a mismatch, flagged', async () => {
    const pdf = await certificate((page, font) => {
      page.pushOperators(pushGraphicsState(), setTextRenderingMode(TextRenderingMode.Invisible));
      claimLines(page, font);
      page.pushOperators(popGraphicsState());
    });
    const r = await checkDocument(pdf, claims);
    expect(r.textMatches).toEqual(NONE);
    // The text is what a reader sees: nothing, with a mark where text was left out (never a word).
    expect(r.text).toBe('…');
    expect(r.textSource).toBe('pdf');
    expect(r.hiddenTextIgnored).toBe(true);
    expect(r.hiddenTextNote).toBe(HIDDEN_TEXT_NOTE);
    expect(HIDDEN_TEXT_NOTE).toBe('Text that is not visible on the page was ignored (invisible, white on white, or covered).');
    expect(r.namedOnlyByHiddenText).toEqual(['title', 'institution', 'program']);
    expect(r.tamperSignals).toContain('Contains hidden text: the claimed title, institution and program are named only by text that is not visible on the page.');
    expect(r.pagesDrawn).toBe(1);
  });

  it('ignores claims printed white on a white page (a certificate of attendance underneath)', async () => {
    const pdf = await certificate((page, font) => claimLines(page, font, { color: rgb(1, 1, 1) }), ['Certificate of Attendance', 'Open Day 2022']);
    const r = await checkDocument(pdf, claims);
    expect(r.textMatches).toEqual(NONE);
    expect(r.text).toBe('Certificate of Attendance\nOpen Day 2022\n…');
    expect(r.hiddenTextIgnored).toBe(true);
    expect(r.namedOnlyByHiddenText).toEqual(['title', 'institution', 'program']);
  });

  it('ignores claims under an opaque white rectangle drawn over them', async () => {
    const pdf = await certificate(
      (page, font) => {
        claimLines(page, font);
        page.drawRectangle({ x: 40, y: 220, width: 500, height: 110, color: rgb(1, 1, 1) });
      },
      ['Certificate of Attendance'],
    );
    const r = await checkDocument(pdf, claims);
    expect(r.textMatches).toEqual(NONE);
    expect(r.hiddenTextIgnored).toBe(true);
  });

  it('ignores claims under a picture drawn over them, and matches claims printed over a background picture', async () => {
    // Both drawings of the page paint the pictures (the second from the first's pixels: ImageMemo).
    const picture = async (doc: PDFDocument, rgbOf: (x: number, y: number) => [number, number, number]) => {
      const [w, h] = [600, 400];
      const raw = Buffer.alloc(w * h * 3);
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) raw.set(rgbOf(x, y), (y * w + x) * 3);
      return doc.embedJpg(await sharp(raw, { raw: { width: w, height: h, channels: 3 } }).jpeg().toBuffer());
    };
    const covered = await certificate(async (page, font, doc) => {
      claimLines(page, font);
      page.drawImage(await picture(doc, (x, y) => [(x * 7) % 256, (y * 5) % 256, 120]), { x: 40, y: 220, width: 500, height: 110 });
    }, ['Certificate of Attendance']);
    const under = await checkDocument(covered, claims);
    expect(under.textMatches).toEqual(NONE);
    expect(under.hiddenTextIgnored).toBe(true);

    const designed = await certificate(async (page, font, doc) => {
      page.drawImage(await picture(doc, (x, y) => [235 - (x % 20), 225 - (y % 15), 200]), { x: 0, y: 0, width: 842, height: 595 });
      claimLines(page, font);
    });
    const over = await checkDocument(designed, claims);
    expect(over.textMatches).toEqual(ALL);
    expect(over.hiddenTextIgnored).toBeFalsy();
  });

  it('keeps the visible part of a partly covered line', async () => {
    const pdf = await certificate((page, font) => {
      claimLines(page, font);
      // Covers "Philosophy" only (Helvetica 18 pt: "Doctor of " is about 85 pt wide).
      page.drawRectangle({ x: 60 + font.widthOfTextAtSize('Doctor of ', 18) - 1, y: 265, width: 200, height: 30, color: rgb(1, 1, 1) });
    });
    const r = await checkDocument(pdf, claims);
    expect(r.textMatches).toEqual({ title: false, institution: true, program: true });
    expect(r.text).toContain('Doctor of …');
  });

  it('still matches normal black text, without drawing more than the page twice', async () => {
    const pdf = await certificate((page, font) => claimLines(page, font));
    const r = await checkDocument(pdf, claims);
    expect(r.textMatches).toEqual(ALL);
    expect(r.text).toBe(CLAIM_LINES.join('\n'));
    expect(r.hiddenTextIgnored).toBeUndefined();
    expect(r.hiddenTextNote).toBeUndefined();
    expect(r.namedOnlyByHiddenText).toBeUndefined();
    expect(r.tamperSignals).toEqual([]);
    expect(r.pagesDrawn).toBe(1);
  });

  it('matches light grey text that is still readable, at 10 pt and at 8 pt', async () => {
    for (const [grey, size] of [
      [0.75, 10],
      [0.7, 8],
    ]) {
      const r = await checkDocument(await certificate((page, font) => claimLines(page, font, { color: rgb(grey, grey, grey), size })), claims);
      expect(r.textMatches, `grey ${grey} at ${size} pt`).toEqual(ALL);
    }
  });

  it('ignores text too faint to read (2 % from white, or black at 5 % opacity)', async () => {
    const faint = await checkDocument(await certificate((page, font) => claimLines(page, font, { color: rgb(0.98, 0.98, 0.98) }), ['Certificate of Attendance']), claims);
    expect(faint.textMatches).toEqual(NONE);
    const transparent = await checkDocument(await certificate((page, font) => claimLines(page, font, { opacity: 0.05 }), ['Certificate of Attendance']), claims);
    expect(transparent.textMatches).toEqual(NONE);
  });

  it('matches white text on a dark filled rectangle (readable)', async () => {
    const pdf = await certificate((page, font) => {
      page.drawRectangle({ x: 40, y: 220, width: 600, height: 110, color: rgb(0.1, 0.15, 0.3) });
      claimLines(page, font, { color: rgb(1, 1, 1) });
    });
    const r = await checkDocument(pdf, claims);
    expect(r.textMatches).toEqual(ALL);
    expect(r.hiddenTextIgnored).toBeUndefined();
  });

  it('ignores microscopic text (1 pt), and keeps small print (6 pt)', async () => {
    const tiny = await checkDocument(await certificate((page, font) => claimLines(page, font, { size: 1 }), ['Certificate of Attendance']), claims);
    expect(tiny.textMatches).toEqual(NONE);
    expect(tiny.hiddenTextIgnored).toBe(true);
    const small = await checkDocument(await certificate((page, font) => claimLines(page, font, { size: 6 })), claims);
    expect(small.textMatches).toEqual(ALL);
  });

  it('ignores invisible or faint claims laid exactly over other, visible text', async () => {
    // The visible line's ink lies inside the hidden one's box: each is judged by what it adds itself.
    const attendance = (page: PDFPage, font: PDFFont) =>
      ['Certificate of Attendance', 'Open Day 2022 at the campus', 'Guided tour'].forEach((l, i) => page.drawText(l, { x: 60, y: 300 - 30 * i, size: 18, font }));
    const invisibleOver = await certificate((page, font) => {
      attendance(page, font);
      page.pushOperators(pushGraphicsState(), setTextRenderingMode(TextRenderingMode.Invisible));
      claimLines(page, font);
      page.pushOperators(popGraphicsState());
    });
    const r = await checkDocument(invisibleOver, claims);
    expect(r.textMatches).toEqual(NONE);
    expect(r.text).toContain('Certificate of Attendance');

    const faintOver = await certificate((page, font) => {
      attendance(page, font);
      claimLines(page, font, { color: rgb(1, 1, 1), opacity: 0.03 });
    });
    expect((await checkDocument(faintOver, claims)).textMatches).toEqual(NONE);

    // …and visible claims under an invisible layer still count.
    const visibleUnder = await certificate((page, font) => {
      claimLines(page, font);
      page.pushOperators(pushGraphicsState(), setTextRenderingMode(TextRenderingMode.Invisible));
      attendance(page, font);
      page.pushOperators(popGraphicsState());
    });
    expect((await checkDocument(visibleUnder, claims)).textMatches).toEqual(ALL);
  });

  it('ignores claims clipped away, and claims in a hidden optional-content layer', async () => {
    const clipped = await certificate(
      (page, font) => {
        page.pushOperators(pushGraphicsState(), op('re', 0, 0, 5, 5), op('W'), op('n'));
        claimLines(page, font);
        page.pushOperators(popGraphicsState());
      },
      ['Certificate of Attendance'],
    );
    expect((await checkDocument(clipped, claims)).textMatches).toEqual(NONE);

    const layered = await certificate(
      (page, font, doc) => {
        const ocg = doc.context.register(doc.context.obj({ Type: 'OCG', Name: PDFString.of('Hidden') }));
        doc.catalog.set(PDFName.of('OCProperties'), doc.context.obj({ OCGs: [ocg], D: { OFF: [ocg], Order: [ocg] } }));
        page.node.Resources()?.set(PDFName.of('Properties'), doc.context.obj({ oc1: ocg }));
        page.pushOperators(op('BDC', PDFName.of('OC'), PDFName.of('oc1')));
        claimLines(page, font);
        page.pushOperators(op('EMC'));
      },
      ['Certificate of Attendance'],
    );
    const r = await checkDocument(layered, claims);
    expect(r.textMatches).toEqual(NONE);
    expect(r.hiddenTextIgnored).toBe(true);
  });

  it('sees text drawn inside a transparency group, offset on the page', async () => {
    const pdf = await certificate((page, font, doc) => {
      const content = CLAIM_LINES.map((l, i) => `BT /F9 18 Tf 60 ${300 - 30 * i} Td (${l}) Tj ET`).join('\n') + '\n1 1 1 rg BT /F9 18 Tf 60 150 Td (Bachelor of Arts) Tj ET';
      const form = PDFRawStream.of(
        doc.context.obj({ Type: 'XObject', Subtype: 'Form', BBox: [40, 100, 600, 330], Resources: { Font: { F9: font.ref } }, Group: { S: 'Transparency', I: true } }) as PDFDict,
        new TextEncoder().encode(content),
      );
      page.pushOperators(pushGraphicsState(), op('cm', 1, 0, 0, 1, 15, 20), op('Do', page.node.newXObject('G1', doc.context.register(form))), popGraphicsState());
    });
    const r = await checkDocument(pdf, { ...claims, title: 'Bachelor of Arts' });
    expect(r.textMatches).toEqual({ title: false, institution: true, program: true });
  });

  it('follows Type 3 glyphs by what their procedures paint, wherever that is', async () => {
    // A Type 3 font whose letters are procedures: `box` paints a block at the glyph, `far` paints it
    // 3 em below the glyph: over white text there, which stays hidden.
    const type3 = (doc: PDFDocument, body: string, scale = 0.001) => {
      const names = [...'abcdefghijklmnopqrstuvwxyz'];
      const procs = Object.fromEntries(names.map((n) => [n, doc.context.register(PDFRawStream.of(doc.context.obj({}) as PDFDict, new TextEncoder().encode(`600 0 d0 ${body} f`)))]));
      procs.space = doc.context.register(PDFRawStream.of(doc.context.obj({}) as PDFDict, new TextEncoder().encode('300 0 d0')));
      return doc.context.register(
        doc.context.obj({
          Type: 'Font',
          Subtype: 'Type3',
          FontBBox: [0, 0, 600, 700],
          FontMatrix: [scale, 0, 0, scale, 0, 0],
          CharProcs: procs,
          Encoding: { Type: 'Encoding', Differences: [32, PDFName.of('space'), 97, ...names.map((n) => PDFName.of(n))] },
          FirstChar: 32,
          LastChar: 122,
          Widths: Array.from({ length: 91 }, (_, i) => (i === 0 ? 300 : 600)),
          Resources: {},
        }),
      );
    };
    const show = (font: PDFName, text: string, y: number, mode = 0) => [op('BT'), op('Tr', mode), op('Tf', font, 20), op('Td', 60, y), op('Tj', PDFString.of(text)), op('ET')];
    const pdf = await certificate((page, _font, doc) => {
      const box = page.node.newFontDictionary('T1', type3(doc, '50 0 500 600 re'));
      const far = page.node.newFontDictionary('T2', type3(doc, '0 -3000 600 700 re'));
      page.pushOperators(...show(box, 'theoretical physics', 400));
      page.pushOperators(op('1 1 1 rg' as never), ...show(box, 'doctor of philosophy', 350), op('0 0 0 rg' as never));
      page.pushOperators(op('1 1 1 rg' as never), ...show(box, 'massachusetts', 250), op('0 0 0 rg' as never), ...show(far, 'institute of technology', 310));
      // A nominal 20 pt whose font matrix shrinks every glyph to a speck (1 pt): not readable.
      const speck = page.node.newFontDictionary('T3', type3(doc, '50 0 500 600 re', 0.00008));
      page.pushOperators(...show(speck, 'doctor of philosophy', 200));
    });
    const r = await checkDocument(pdf, { title: 'doctor of philosophy', institution_name: 'massachusetts', program_name: 'theoretical physics' });
    expect(r.textMatches).toEqual({ title: false, institution: false, program: true });
    expect(r.text).toContain('institute of technology');
    expect(r.namedOnlyByHiddenText).toEqual(['title', 'institution']);
  });

  it('reads only as many pages as it takes for the visible text to name every claim', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (let p = 0; p < 5; p++) claimLines(doc.addPage([842, 595]), font);
    const r = await checkDocument(await doc.save(), claims);
    expect(r.textMatches).toEqual(ALL);
    expect(r.pageCount).toBe(5);
    expect(r.pagesRead).toBe(1);
    expect(r.pagesDrawn).toBe(1);
  });

  it("reads a scan's page image when its OCR text layer is invisible (the layer alone names nothing)", async () => {
    // Scanners put recognised text in mode 3 over the page image; that layer is not what a reader
    // sees, the image is: it is read with OCR, as a scan without a layer is.
    const lines = ['Certificate of Completion', 'awarded to Jane Doe', 'Université de Montréal', 'Applied Machine-Learning Fundamentals'];
    const doc = await PDFDocument.load(await toPdf(await renderCertificateImage(lines), 'png'));
    const page = doc.getPage(0);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    page.pushOperators(pushGraphicsState(), setTextRenderingMode(TextRenderingMode.Invisible));
    lines.forEach((l, i) => page.drawText(l, { x: 40, y: page.getHeight() - 80 - 40 * i, size: 16, font }));
    page.pushOperators(popGraphicsState());
    const scanClaims = { title: 'Certificate of Completion', institution_name: 'Université de Montréal', program_name: 'Applied Machine-Learning Fundamentals' };
    const r = await checkDocument(await doc.save(), scanClaims);
    expect(r.textSource).toBe('ocr');
    expect(r.textMatches).toEqual(ALL);
    expect(r.hiddenTextIgnored).toBe(true);
    expect(r.namedOnlyByHiddenText).toBeUndefined();
    expect(r.tamperSignals.filter((s) => /hidden/i.test(s))).toEqual([]);
  });
});
