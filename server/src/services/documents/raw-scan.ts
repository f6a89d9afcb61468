// What a PDF's raw bytes show even when its objects are compressed: incremental updates (each save
// appends a cross-reference section and an end marker), encryption, scripts and attachments by name.
// Searched in the bytes themselves (Buffer.indexOf, native) rather than in a string copy of them: a
// 1 MB certificate's copy and regular-expression passes cost ~1.9 ms of a ~35 ms read, this 0.24 ms.
// Each test matches exactly what its regular expression (kept beside it) matches; raw-scan.test.ts
// holds that.

export const ENCRYPTED = 'The PDF is encrypted.';

/** The raw-byte signals of `bytes`, in this order: updates, encryption, JavaScript, embedded files. */
export function scanRawBytes(bytes: Uint8Array): string[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const signals: string[] = [];
  const eofs = count(buf, '%%EOF');
  const startxrefs = count(buf, 'startxref');
  // A linearized ("fast web view") file legitimately has two sections.
  const linearized = /\/Linearized\b/.test(buf.toString('latin1', 0, 2048));
  const updates = Math.max(eofs, startxrefs) - (linearized ? 2 : 1);
  if (updates > 0) {
    signals.push(`Changed after it was first saved (${updates} incremental update${updates === 1 ? '' : 's'}).`);
  }
  if (some(buf, '/Encrypt', encryptValueAt)) signals.push(ENCRYPTED); // /\/Encrypt\s*(\d+\s+\d+\s+R|<<)/
  if (some(buf, '/JavaScript', wordEndsAt) || some(buf, '/JS', wordEndsAt)) signals.push('Contains JavaScript.'); // /\/(JavaScript|JS)\b/
  if (some(buf, '/EmbeddedFile', (b, i) => wordEndsAt(b, i) || (b[i] === 0x73 /* s */ && wordEndsAt(b, i + 1)))) signals.push('Contains embedded files.'); // /\/(EmbeddedFiles?)\b/
  return signals;
}

function count(buf: Buffer, needle: string): number {
  let n = 0;
  for (let i = find(buf, needle, 0); i !== -1; i = find(buf, needle, i + needle.length)) n++;
  return n;
}

/** Whether some occurrence of `needle` is followed (at the index after it) by what `after` accepts. */
function some(buf: Buffer, needle: string, after: (buf: Buffer, at: number) => boolean): boolean {
  for (let i = find(buf, needle, 0); i !== -1; i = find(buf, needle, i + 1)) {
    if (after(buf, i + needle.length)) return true;
  }
  return false;
}

/**
 * buf.indexOf(needle, from) for an ASCII needle. Node searches for a needle of up to 7 bytes ~12×
 * faster than for a longer one (0.035 against 0.4 ms a MB here), so a longer needle is found by its
 * first 7 bytes and the rest compared.
 */
function find(buf: Buffer, needle: string, from: number): number {
  const head = needle.slice(0, 7);
  for (let i = buf.indexOf(head, from, 'latin1'); i !== -1; i = buf.indexOf(head, i + 1, 'latin1')) {
    let k = head.length;
    while (k < needle.length && buf[i + k] === needle.charCodeAt(k)) k++;
    if (k === needle.length) return i;
  }
  return -1;
}

/** A regular expression's \b after a word character: the end, or a byte that is not [A-Za-z0-9_]. */
function wordEndsAt(buf: Buffer, at: number): boolean {
  return at >= buf.length || !isWord(buf[at]);
}

const isWord = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
/** A regular expression's \s within one byte (latin1): tab, line feed, vertical tab, form feed, return, space, no-break space. */
const isSpace = (c: number) => (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0xa0;

/** `\s*(\d+\s+\d+\s+R|<<)` from `at` (the classes are disjoint, so one pass decides it). */
function encryptValueAt(buf: Buffer, at: number): boolean {
  let i = at;
  while (i < buf.length && isSpace(buf[i])) i++;
  if (buf[i] === 0x3c && buf[i + 1] === 0x3c) return true; // <<
  for (let part = 0; part < 2; part++) {
    const digits = i;
    while (i < buf.length && isDigit(buf[i])) i++;
    if (i === digits) return false;
    const spaces = i;
    while (i < buf.length && isSpace(buf[i])) i++;
    if (i === spaces) return false;
  }
  return buf[i] === 0x52; // R
}
