import { describe, expect, it } from 'vitest';
import { appendIncrementalUpdate, makeEncryptedPdf, makePdf } from '../../../test/fixtures/files.js';
import { pdfWithEmbeddedFile, pdfWithNamedJavaScript } from '../../../test/hostile-support/files.js';
import { scanRawBytes } from './raw-scan.js';

/** The scan as it was written with regular expressions over a latin1 copy: the byte scan must match it exactly. */
function byRegex(raw: string): string[] {
  const count = (needle: string) => raw.split(needle).length - 1;
  const signals: string[] = [];
  const linearized = /\/Linearized\b/.test(raw.slice(0, 2048));
  const updates = Math.max(count('%%EOF'), count('startxref')) - (linearized ? 2 : 1);
  if (updates > 0) signals.push(`Changed after it was first saved (${updates} incremental update${updates === 1 ? '' : 's'}).`);
  if (/\/Encrypt\s*(\d+\s+\d+\s+R|<<)/.test(raw)) signals.push('The PDF is encrypted.');
  if (/\/(JavaScript|JS)\b/.test(raw)) signals.push('Contains JavaScript.');
  if (/\/(EmbeddedFiles?)\b/.test(raw)) signals.push('Contains embedded files.');
  return signals;
}

// Near misses as well as hits: a name running on into a word character, an indirect reference
// missing a part, whitespace a PDF would not call whitespace (0x85) and one a regular expression does (0xa0).
const FRAGMENTS = [
  '/Encrypt 12 0 R', '/Encrypt<<', '/Encrypt\xa0\x0b<<', '/Encrypt 12 0R', '/Encrypt 12\n0\rR', '/Encrypt12 0 R', '/Encrypt <', '/Encrypt 1 R',
  '/Encrypt\x85<<', '/Encrypt', '/JS', '/JSX', '/JS_', '/JS(', '/JS\x85', '/JavaScript', '/JavaScripts', '/JavaScript/', '/EmbeddedFile',
  '/EmbeddedFiles', '/EmbeddedFilesX', '/EmbeddedFileX', '/EmbeddedFile_', '%%EOF', '%%EO', 'startxref', 'startxre', '/Linearized 1',
  '/LinearizedX', ' ', '\n', '<<', 'R', '0', '7', '/', 's',
];

function randomBytes(rand: () => number): Uint8Array {
  const parts: string[] = [];
  const n = Math.floor(rand() * 12);
  for (let i = 0; i < n; i++) {
    if (rand() < 0.7) parts.push(FRAGMENTS[Math.floor(rand() * FRAGMENTS.length)]);
    else parts.push(String.fromCharCode(...Array.from({ length: Math.floor(rand() * 6) }, () => Math.floor(rand() * 256))));
  }
  return Buffer.from(parts.join(''), 'latin1');
}

describe('scanRawBytes', () => {
  it('finds exactly what the regular expressions found, hits and near misses alike', () => {
    // mulberry32: a 32-bit generator (arithmetic past 2^53 would lose bits and cycle early).
    let seed = 42;
    const rand = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
    };
    const distinct = new Set<string>();
    const seen = new Set<string>();
    for (let k = 0; k < 20_000; k++) {
      const bytes = randomBytes(rand);
      const expected = byRegex(Buffer.from(bytes).toString('latin1'));
      distinct.add(Buffer.from(bytes).toString('latin1'));
      expect(scanRawBytes(bytes), JSON.stringify(Buffer.from(bytes).toString('latin1'))).toEqual(expected);
      for (const s of expected) seen.add(s.replace(/\d+ incremental updates?/, 'n'));
    }
    expect(distinct.size).toBeGreaterThan(15_000); // not a generator caught in a short cycle
    // Every signal was met (the inputs are not all misses).
    expect([...seen].sort()).toEqual(['Changed after it was first saved (n).', 'Contains JavaScript.', 'Contains embedded files.', 'The PDF is encrypted.']);
    for (const fragment of FRAGMENTS) {
      const bytes = Buffer.from(fragment, 'latin1');
      expect(scanRawBytes(bytes), fragment).toEqual(byRegex(fragment));
      // And inside a view that does not start at its buffer's beginning (as bytes sent to a reader are).
      const padded = Buffer.concat([Buffer.from('/JS/Encrypt<<%%EOF'), bytes]).subarray(18);
      expect(scanRawBytes(padded), `view of ${fragment}`).toEqual(byRegex(fragment));
    }
  });

  it('reads real PDFs as before: saved once, updated, encrypted, with a script, with an attachment', async () => {
    const base = await makePdf({ lines: ['Certificate of Completion'], useObjectStreams: false });
    const pdfs = [
      base,
      await appendIncrementalUpdate(base, { producer: 'Adobe Acrobat Pro', modDate: 'D:20300101000000Z' }),
      await makeEncryptedPdf({ userPassword: '' }),
      await pdfWithNamedJavaScript(),
      await pdfWithEmbeddedFile(),
    ];
    const found = pdfs.map((pdf) => scanRawBytes(pdf));
    found.forEach((signals, i) => expect(signals).toEqual(byRegex(Buffer.from(pdfs[i]).toString('latin1'))));
    expect(found[0]).toEqual([]);
    expect(found[1]).toEqual(['Changed after it was first saved (1 incremental update).']);
    expect(found[2]).toContain('The PDF is encrypted.');
    expect(found[3]).toContain('Contains JavaScript.');
    expect(found[4]).toContain('Contains embedded files.');
  });
});
