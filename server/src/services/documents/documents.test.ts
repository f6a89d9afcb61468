import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { appendIncrementalUpdate, makeEncryptedPdf, makePdf } from '../../../test/fixtures/files.js';
import { checkDocument, DocumentUnreadableError, normaliseText, textNames, textNamesPerson } from './index.js';

const claims = {
  title: 'Certificate of Completion',
  institution_name: 'Université de Montréal',
  program_name: 'Applied Machine-Learning Fundamentals',
};

describe('checkDocument', () => {
  it('finds the claimed title, institution and program, tolerant of case, accents and line breaks', async () => {
    const pdf = await makePdf({
      lines: ['CERTIFICATE OF COMPLETION', 'awarded by the Universite de Montreal', 'for the programme Applied Machine', 'Learning Fundamentals', 'to Jane Doe'],
      producer: 'pdf-lib',
      creator: 'Attesta tests',
    });
    const r = await checkDocument(pdf, claims);
    expect(r.textMatches).toEqual({ title: true, institution: true, program: true });
    expect(r.pageCount).toBe(1);
    expect(r.pagesRead).toBe(1);
    expect(r.text).toContain('CERTIFICATE OF COMPLETION');
    expect(r.tamperSignals).toEqual([]);
    expect(r.producer).toBe('pdf-lib');
    expect(r.creator).toBe('Attesta tests');
  });

  it("looks for the holder's name when asked, and reports it beside the other claims", async () => {
    const pdf = await makePdf({ lines: ['Certificate of Completion', 'Université de Montréal', 'Applied Machine-Learning Fundamentals', 'awarded to DOE, Jane Marie'] });
    expect((await checkDocument(pdf, { ...claims, holder_name: 'Jane Doe' })).textMatches).toEqual({ title: true, institution: true, program: true, holder: true });
    expect((await checkDocument(pdf, { ...claims, holder_name: 'John Doe' })).textMatches).toEqual({ title: true, institution: true, program: true, holder: false });
    // An empty name is never found; without one the check does not report on the holder at all.
    expect((await checkDocument(pdf, { ...claims, holder_name: '' })).textMatches.holder).toBe(false);
    expect((await checkDocument(pdf, claims)).textMatches).not.toHaveProperty('holder');
  });

  it("does not find the holder's name inside the claimed title, institution or program", async () => {
    const pdf = await makePdf({ lines: ['Certificate of Completion', 'Université de Montréal', 'Applied Machine-Learning Fundamentals', 'awarded to Jane Doe'] });
    // A profile named after the program (or the institution) is not named by the certificate as its holder.
    for (const holder_name of ['Machine-Learning Fundamentals', 'Montréal', 'Université de Montréal']) {
      expect((await checkDocument(pdf, { ...claims, holder_name })).textMatches.holder, holder_name).toBe(false);
    }
    // A holder whose name is also in the institution's name is found where the certificate names them.
    const harvard = await makePdf({ lines: ['Certificate of Completion', 'Harvard Extension School', 'Applied Machine-Learning Fundamentals', 'awarded to John Harvard'] });
    expect((await checkDocument(harvard, { ...claims, institution_name: 'Harvard Extension School', holder_name: 'John Harvard' })).textMatches).toEqual({ title: true, institution: true, program: true, holder: true });
    expect((await checkDocument(harvard, { ...claims, institution_name: 'Harvard Extension School', holder_name: 'Harvard Extension' })).textMatches.holder).toBe(false);
  });

  it('reports what the text does not name', async () => {
    const pdf = await makePdf({ lines: ['Certificate of Attendance', 'Springfield Community College', 'Basket Weaving'] });
    const r = await checkDocument(pdf, claims);
    expect(r.textMatches).toEqual({ title: false, institution: false, program: false });
    expect(r.text).toContain('Springfield Community College');
  });

  it('flags an incremental update, the edit date and an editing tool as producer', async () => {
    const base = await makePdf({ lines: ['Certificate of Completion'], useObjectStreams: false, creationDate: new Date('2024-01-01T00:00:00Z'), modDate: new Date('2024-01-01T00:00:00Z') });
    const base0 = await checkDocument(base, claims);
    expect(base0.tamperSignals).toEqual([]);
    const edited = await appendIncrementalUpdate(base, { producer: 'Wondershare PDFelement', modDate: 'D:20240315120000Z' });
    const r = await checkDocument(edited, claims);
    expect(r.textMatches.title).toBe(true);
    expect(r.producer).toBe('Wondershare PDFelement');
    expect(r.tamperSignals).toContain('Changed after it was first saved (1 incremental update).');
    expect(r.tamperSignals).toContain('Saved by an editing tool (PDFelement) after being created by Microsoft Word.');
    expect(r.tamperSignals.some((s) => /^Modified \d+ days after it was created\.$/.test(s))).toBe(true);
  });

  it('flags embedded JavaScript, even inside compressed object streams', async () => {
    const doc = await PDFDocument.create();
    doc.addPage().drawText('Certificate of Completion', { font: await doc.embedFont(StandardFonts.Helvetica) });
    doc.addJavaScript('open', 'app.alert("hello")');
    const pdf = await doc.save({ useObjectStreams: true });
    const r = await checkDocument(pdf, claims);
    expect(r.tamperSignals).toContain('Contains JavaScript.');
    expect(r.textMatches.title).toBe(true);
  });

  it('flags an embedded file', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    await doc.attach(new TextEncoder().encode('secret payload'), 'payload.txt', { mimeType: 'text/plain' });
    const r = await checkDocument(await doc.save(), claims);
    expect(r.tamperSignals).toContain('Contains embedded files.');
  });

  it('reads an encrypted PDF that opens without a password, and says it is encrypted', async () => {
    const pdf = await makeEncryptedPdf({ userPassword: '', lines: ['Certificate of Completion'] });
    const r = await checkDocument(pdf, claims);
    expect(r.textMatches.title).toBe(true);
    expect(r.tamperSignals).toContain('The PDF is encrypted.');
  });

  it('reports a password-protected PDF instead of failing', async () => {
    const r = await checkDocument(await makeEncryptedPdf({ userPassword: 'hunter2' }), claims);
    expect(r.textMatches).toEqual({ title: false, institution: false, program: false });
    expect(r.tamperSignals).toContain('The PDF is password-protected, so its text could not be read.');
  });

  it('reads at most maxPages of a 3000-page PDF, quickly', async () => {
    const pdf = await makePdf({ lines: ['Certificate of Completion', 'Université de Montréal'], pages: 3000 });
    const started = Date.now();
    const r = await checkDocument(pdf, claims);
    const elapsed = Date.now() - started;
    expect(r.pageCount).toBe(3000);
    expect(r.pagesRead).toBe(10);
    expect(r.textMatches.title).toBe(true);
    expect(r.text.length).toBeLessThanOrEqual(2000);
    expect(elapsed).toBeLessThan(30_000); // ~2.5 s on an idle 2-core box; the cap itself is pagesRead
  });

  it('stops reading pages when the time budget is spent', async () => {
    const pdf = await makePdf({ lines: ['Certificate of Completion'], pages: 50 });
    const r = await checkDocument(pdf, claims, { maxPages: 50, timeoutMs: 0 });
    expect(r.pagesRead).toBe(0);
    expect(r.pageCount).toBe(50);
    expect(r.textMatches.title).toBe(false);
  });

  it('throws DocumentUnreadableError for bytes that are not a PDF', async () => {
    await expect(checkDocument(new TextEncoder().encode('%PDF-1.7\nnot really\n%%EOF'), claims)).rejects.toBeInstanceOf(DocumentUnreadableError);
  });
});

describe('text matching', () => {
  it('normalises ligatures, accents, punctuation and case', () => {
    expect(normaliseText('Ofﬁcial  Certiﬁcate — École\nPolytechnique & Co.')).toBe('official certificate ecole polytechnique and co');
  });
  it('matches whole words, or the compact form for words split by line breaks / letter spacing', () => {
    const t = normaliseText('C E R T I F I C A T E of Achieve-\nment from Start Academy');
    expect(textNames(t, 'Certificate of Achievement')).toBe(true);
    expect(textNames(t, 'Art')).toBe(false); // inside "Start": not a word, too short for compact matching
    expect(textNames(t, '')).toBe(false);
    expect(textNames(t, 'Start Academy')).toBe(true);
  });
  it("finds a person's name as written, reordered or with a middle name, never from scattered words or initials", () => {
    const t = (s: string) => normaliseText(s);
    expect(textNamesPerson(t('This certifies that Jane Doe has completed'), 'Jane Doe')).toBe(true);
    expect(textNamesPerson(t('Awarded to: DOE, Jane'), 'Jane Doe')).toBe(true);
    expect(textNamesPerson(t('Awarded to Jane A. Doe'), 'Jane Doe')).toBe(true);
    expect(textNamesPerson(t('Awarded to Jane Marie Doe'), 'Jane Doe')).toBe(true);
    expect(textNamesPerson(t('Awarded to José Núñez'), 'Jose Nunez')).toBe(true);
    // The words of the name far apart are not the name; initials are not the name either.
    expect(textNamesPerson(t('Signed by Jane Smith, Dean of the Faculty of Arts and Sciences, for John Doe'), 'Jane Doe')).toBe(false);
    expect(textNamesPerson(t('Awarded to J. Doe'), 'Jane Doe')).toBe(false);
    expect(textNamesPerson(t('Awarded to Jane Doering'), 'Jane Doe')).toBe(false);
    expect(textNamesPerson(t('Awarded to Jane Doe'), '')).toBe(false);
    // OCR output: one letter off in a longer word of the name still counts; in a short one it does not.
    expect(textNamesPerson(t('Awarded to Jane Dovelace'), 'Jane Lovelace', true)).toBe(true);
    expect(textNamesPerson(t('Awarded to Jane Dovelace'), 'Jane Lovelace', false)).toBe(false);
    expect(textNamesPerson(t('Awarded to Jone Lovelace'), 'Jane Lovelace', true)).toBe(false);
  });
});
