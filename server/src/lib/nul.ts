// PostgreSQL text cannot hold NUL (SQLite can): every input with one is refused up front, on both
// databases, as bad input before anything is read or written (tRPC: trpc.ts; REST create: rest/).
export const NUL_MESSAGE = 'Text must not contain NUL characters (\\u0000).';

/** A NUL character anywhere in an input (strings, object keys, form fields, file names). */
export function hasNul(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return v.includes('\0');
  if (depth > 32 || v === null || typeof v !== 'object') return false;
  if (typeof File !== 'undefined' && v instanceof File) return v.name.includes('\0');
  if (v instanceof FormData) return [...v.entries()].some(([k, x]) => k.includes('\0') || hasNul(x, depth + 1));
  return Object.entries(v).some(([k, x]) => k.includes('\0') || hasNul(x, depth + 1));
}
