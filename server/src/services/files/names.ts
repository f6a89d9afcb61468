/**
 * Upload names are user input: they are shown in the app, offered as download names and sent in
 * Content-Disposition, but never used as a path (blobs are stored under generated keys).
 */

/** Longest stored name (without the extension); filesystems allow 255 bytes, UIs show far less. */
const MAX_NAME_CHARS = 120;

// C0/C1 controls and DEL; bidi embeddings, overrides and isolates (U+202E makes "fdp.exe" read "exe.pdf");
// zero-width characters, the BOM and line/paragraph separators.
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
// Characters no Windows filesystem accepts; a downloaded name must save everywhere.
const RESERVED = /[<>:"/\\|?*]/g;

/**
 * The name to show and to offer for download: the last segment of whatever path the browser sent,
 * without invisible or reserved characters, at most 120 characters, with `ext` as its extension
 * (the stored bytes decide the type, so any other extension goes). `fallback` when nothing is left.
 */
export function safeFileName(name: string | undefined | null, ext: string, fallback = 'certificate'): string {
  const last = String(name ?? '').split(/[/\\]/).pop() ?? '';
  let base = last
    .normalize('NFC')
    .replace(INVISIBLE, '')
    .replace(RESERVED, '_')
    .replace(/\s+/g, ' ')
    .replace(/\.[^.]*$/, '') // the claimed extension: the real type is the stored one
    .replace(/^[\s.]+|[\s.]+$/g, ''); // no hidden (.name) or Windows-invalid trailing-dot names
  base = [...base].slice(0, MAX_NAME_CHARS).join('').trim(); // by code point: never split a surrogate pair
  return `${base || fallback}.${ext}`;
}

/**
 * A Content-Disposition value that is always a valid header (Node refuses non-Latin-1 and control
 * characters with a 500): an ASCII `filename` fallback plus the exact name as RFC 5987 `filename*`.
 */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const clean = name.replace(INVISIBLE, '');
  const ascii = clean.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_') || 'file';
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
