// Hostile inputs shared by the tRPC and REST fuzz tests: schema-shaped-but-wrong values, raw garbage
// and multipart forms with odd fields, file bytes, names and MIME types.
import fc from 'fast-check';

/** Fixed seed by default (reproducible in CI); FC_SEED=<n> explores others. fast-check prints the seed on failure. */
export const FC_SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20_261_122;
export const fcParams = (numRuns: number): fc.Parameters<unknown> => ({ seed: FC_SEED, numRuns, endOnFailure: true });

/** `arb` about one time in four, else undefined. */
export const sometimes = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

/** Strings that break naive code: SQL/LIKE metacharacters, NUL, bidi, astral, prototype keys, paths, markup. */
export const SPECIAL_STRINGS = [
  '',
  ' ',
  '   \t\n ',
  '\u0000',
  'a\u0000b',
  '%',
  '_',
  '%_',
  "'",
  '"',
  '\\',
  ";--",
  "%_'\"\\;--",
  "' OR 1=1 --",
  "'); DROP TABLE certificate; --",
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '\u202eevil',
  '\ufeff',
  '😀🎓',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'Ünïcödé Ωμέγα 中文 العربية',
  '\ud800', // lone surrogate
  'NaN',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  '1e309',
  '../../../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '<script>alert(1)</script>',
  '\r\nSet-Cookie: x=1',
  '${jndi:ldap://x}',
  '{{7*7}}',
  'cert-1',
  'a'.repeat(64),
  'a'.repeat(65),
  'a'.repeat(201),
  'x'.repeat(2001),
  'f'.repeat(64),
  'F'.repeat(64),
  ' ' + 'a'.repeat(64) + ' ',
];

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('a', 'é', '%', '\u0000', '😀'), fc.integer({ min: 150, max: 3000 })).map(([c, n]) => c.repeat(n)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...SPECIAL_STRINGS), fc.constantFrom(...SPECIAL_STRINGS)).map(([a, b]) => a + b) },
);

export const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, -1, 1, 1.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, -1e308, Number.MAX_VALUE, Number.MIN_VALUE, 201, 1e21),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Own-property prototype-pollution keys (JSON.parse makes `__proto__` an own key, as a wire body would). */
export const pollutionObject: fc.Arbitrary<Record<string, unknown>> = fc.constantFrom(
  JSON.parse('{"__proto__":{"polluted":"yes"}}'),
  JSON.parse('{"constructor":{"prototype":{"polluted":"yes"}}}'),
  JSON.parse('{"__proto__":{"toString":"x","isAdmin":true},"constructor":"x","prototype":null}'),
);

/** Any JSON value, biased towards the nasty ones. */
export const nastyValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: nastyString },
    { weight: 2, arbitrary: nastyNumber },
    { weight: 1, arbitrary: fc.constantFrom(null, true, false) },
    { weight: 1, arbitrary: pollutionObject },
    { weight: 1, arbitrary: fc.array(tie('v'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(nastyString, tie('v'), { maxKeys: 4 }) },
  ),
})).v;

/** A field's value: usually a plausible-but-wrong one, sometimes a valid one, sometimes missing. */
export const fieldValue = (valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 2, arbitrary: valid }, { weight: 3, arbitrary: nastyValue }, { weight: 1, arbitrary: fc.constant(undefined) });

/**
 * An object input: all fields plausible (`valid`, by default a record of the field arbitraries), or
 * the known keys with fuzzed values plus sometimes extra or pollution keys, or a wholly wrong value
 * (a string, an array, null...).
 */
export function shaped(fields: Record<string, fc.Arbitrary<unknown>>, valid: fc.Arbitrary<unknown> = fc.record(fields)): fc.Arbitrary<unknown> {
  const keys = Object.keys(fields);
  const record = fc
    .tuple(
      fc.tuple(...keys.map((k) => fieldValue(fields[k]))),
      fc.option(fc.dictionary(nastyString, nastyValue, { maxKeys: 3 }), { nil: undefined }),
      fc.option(pollutionObject, { nil: undefined }),
    )
    .map(([values, extra, pollution]) => {
      const o: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(extra ?? {})) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
      for (const [k, v] of Object.entries(pollution ?? {})) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
      keys.forEach((k, i) => {
        if (values[i] !== undefined) o[k] = values[i];
      });
      return o;
    });
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 4, arbitrary: record },
    { weight: 1, arbitrary: nastyValue },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

// ── Valid-but-odd values: accepted, and must round-trip exactly (after trimming) ──────────────────
// (No NUL: every input with one is refused, see containsNul.)
const oddChars = fc.constantFrom('Ü', 'é', '中', '😀', '%', '_', "'", '"', '\\', ';', '-', ' ', 'a', 'Z', '0', '\u202e', '\ufeff', '<', '>', '&', '\t');
/** Non-blank after trimming, at most `max` characters (UTF-16 units, as zod counts). */
export const oddText = (max: number) =>
  fc
    .array(oddChars, { minLength: 1, maxLength: Math.min(max, 40) })
    .map((a) => a.join(''))
    .filter((s) => s.trim().length > 0 && s.trim().length <= max);

/** Inputs with a NUL anywhere (strings, keys, form fields, file names) must be refused: PostgreSQL text cannot hold one. */
export function containsNul(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return v.includes('\0');
  if (depth > 32 || v === null || typeof v !== 'object' || v instanceof Uint8Array) return false;
  return Object.entries(v).some(([k, x]) => k.includes('\0') || containsNul(x, depth + 1));
}

// ── Multipart forms ───────────────────────────────────────────────────────────────────────────────
export type FileBytes =
  | { kind: 'pdf' } // a fresh, valid, unique PDF made at call time
  | { kind: 'png' } // a fresh, valid PNG
  | { kind: 'dup'; which: 'own' | 'other' } // the bytes of an existing certificate (the caller's, another holder's)
  | { kind: 'raw'; bytes: Uint8Array };

export interface FormFile {
  file: FileBytes;
  filename: string;
  type: string;
}
export type FormEntry = [name: string, value: string | FormFile];

const PDF_HEAD = new TextEncoder().encode('%PDF-1.7\n');
const PNG_HEAD = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const concat = (a: Uint8Array, b: Uint8Array) => {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
};

export const fileBytes: fc.Arbitrary<FileBytes> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom<FileBytes>({ kind: 'pdf' }, { kind: 'png' }) },
  { weight: 1, arbitrary: fc.constantFrom<FileBytes>({ kind: 'dup', which: 'own' }, { kind: 'dup', which: 'other' }) },
  { weight: 3, arbitrary: fc.uint8Array({ maxLength: 512 }).map((bytes): FileBytes => ({ kind: 'raw', bytes })) },
  // Right magic, garbage after it (truncated or corrupt documents).
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(PDF_HEAD, PNG_HEAD, new Uint8Array([0xff, 0xd8, 0xff]), new TextEncoder().encode('RIFF\0\0\0\0WEBP'), new TextEncoder().encode('GIF89a')), fc.uint8Array({ maxLength: 256 })).map(([h, t]): FileBytes => ({ kind: 'raw', bytes: concat(h, t) })) },
  { weight: 1, arbitrary: fc.constantFrom<FileBytes>({ kind: 'raw', bytes: new Uint8Array() }, { kind: 'raw', bytes: new TextEncoder().encode('<html><script>alert(1)</script></html>') }, { kind: 'raw', bytes: new TextEncoder().encode('MZ\x90\x00 executable') }) },
);

export const filename: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('certificate.pdf', 'photo.png', 'scan.jpg', 'x.webp', 'image.PNG', 'a.gif', 'noext', '.pdf', 'evil.pdf.exe', 'report.pdf\u0000.png', '../../../etc/passwd.pdf', 'C:\\\\windows\\\\x.pdf', '"quoted".pdf', 'new\r\nline.pdf', '%00.pdf', '😀.pdf', 'x'.repeat(400) + '.pdf', ''),
  fc.tuple(nastyString, fc.constantFrom('.pdf', '.png', '.jpg', '.jpeg', '.webp', '.gif', '.exe', '')).map(([n, e]) => n + e),
);

export const mimeType: fc.Arbitrary<string> = fc.constantFrom(
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'text/html',
  'application/octet-stream',
  'application/x-msdownload',
  '',
  'image/svg+xml',
  'multipart/form-data',
);

export const formFile: fc.Arbitrary<FormFile> = fc.record({ file: fileBytes, filename, type: mimeType });

/**
 * A form for a multipart procedure: each expected field present (valid or wrong value, a file where a
 * string belongs or the reverse), missing, or duplicated, plus unexpected fields.
 */
export function formFields(spec: Record<string, { file: boolean; valid: fc.Arbitrary<string> }>): fc.Arbitrary<FormEntry[]> {
  const entryFor = (name: string, s: { file: boolean; valid: fc.Arbitrary<string> }): fc.Arbitrary<FormEntry[]> => {
    const value: fc.Arbitrary<string | FormFile> = s.file
      ? fc.oneof({ weight: 4, arbitrary: formFile }, { weight: 1, arbitrary: nastyString })
      : fc.oneof({ weight: 3, arbitrary: s.valid }, { weight: 3, arbitrary: nastyString }, { weight: 1, arbitrary: formFile });
    return fc.oneof(
      { weight: 6, arbitrary: value.map((v): FormEntry[] => [[name, v]]) },
      { weight: 1, arbitrary: fc.constant<FormEntry[]>([]) },
      { weight: 1, arbitrary: fc.tuple(value, value).map(([a, b]): FormEntry[] => [[name, a], [name, b]]) },
    );
  };
  const names = Object.keys(spec);
  return fc
    .tuple(fc.tuple(...names.map((n) => entryFor(n, spec[n]))), fc.array(fc.tuple(nastyString, fc.oneof(nastyString, formFile)), { maxLength: 2 }))
    .map(([known, extra]) => [...known.flat(), ...(extra as FormEntry[])]);
}

/** Raw bodies that are not what any endpoint expects. */
export const garbageBody: fc.Arbitrary<{ contentType: string | null; body: string | Uint8Array }> = fc.record({
  contentType: fc.constantFrom(
    'application/json',
    'application/json; charset=utf-16',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data',
    'multipart/form-data; boundary=',
    'multipart/form-data; boundary=xyz',
    'application/xml',
    'application/octet-stream',
    '*/*',
    'garbage',
    null,
  ),
  body: fc.oneof(
    fc.constantFrom('', '{', '}', '[', '{"a":', 'null', 'true', '0', '"x"', '[]', '{}', '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]', '{"__proto__":{"polluted":"yes"}}', '{"0":{"json":1}}', 'a=1&b=2', '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.7\r\n--xyz--\r\n', '--xyz\r\n\r\n', '\u0000\u0000', '\ufeff{}'),
    nastyString,
    fc.uint8Array({ maxLength: 300 }),
    nastyValue.map((v) => JSON.stringify(v) ?? 'undefined'),
    // tRPC batch-shaped: {"0": input, "1": input, ...} with bad keys and values.
    fc.dictionary(fc.constantFrom('0', '1', '2', '-1', '10', '__proto__', 'constructor', 'length'), nastyValue, { maxKeys: 4 }).map((o) => JSON.stringify(o)),
  ),
});
