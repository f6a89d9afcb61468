// Matching a document's text against what the holder claims (pure functions: main thread or worker).

/**
 * Stands, in a document's visible text, for text that is there but not visible (visible.ts): a reader
 * of the text sees where something was left out, and it is no word (matching and the closest-text
 * search skip it).
 */
export const HIDDEN_MARK = '\u2026';

/** Lowercase, no accents, ligatures unfolded (NFKD), punctuation and line breaks as single spaces. */
export function normaliseText(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Does the text name the claim? Word-bounded on the normalised text; failing that, with all spaces
 * removed (words split across lines or letter-spaced headings), but only for claims long enough
 * that a coincidental substring is unlikely.
 */
export function textNames(normalisedText: string, claim: string): boolean {
  const c = normaliseText(claim);
  if (!c) return false;
  if (` ${normalisedText} `.includes(` ${c} `)) return true;
  const compactClaim = c.replace(/ /g, '');
  return compactClaim.length >= 6 && normalisedText.replace(/ /g, '').includes(compactClaim);
}

/**
 * Does the text name this person? Every word of their name, as whole words within a few words of
 * each other, in any order: "Jane Doe", "Doe, Jane", "Jane A. Doe", "DOE Jane Marie". Initials
 * ("J. Doe") and longer words ("Doering") do not count: the name must be there in full. With `fuzzy`
 * (OCR output), each word of five letters or more may be off by one letter.
 */
export function textNamesPerson(normalisedText: string, name: string, fuzzy = false): boolean {
  const parts = [...new Set(normaliseText(name).split(' ').filter(Boolean))];
  if (!parts.length) return false;
  const words = (fuzzy ? normalisedText.slice(0, FUZZY_SCAN_CHARS) : normalisedText).split(' ');
  const same = (word: string, part: string) => word === part || (fuzzy && part.length >= 5 && editDistance(word, part, 1) <= 1);
  // A window as long as the name plus two words (a middle name, an initial).
  const span = parts.length + 2;
  for (let i = 0; i < words.length; i++) {
    if (!parts.some((p) => same(words[i], p))) continue;
    const window = words.slice(i, i + span);
    if (parts.every((p) => window.some((w) => same(w, p)))) return true;
  }
  return false;
}

/** OCR text is scanned only this far for fuzzy matches (bounds the quadratic edit distances). */
const FUZZY_SCAN_CHARS = 6000;

/**
 * `textNames` for OCR output, which misreads letters and splits or joins words: also accepts a
 * run of words whose letters (spaces removed) are within about one edit per 8 letters of the
 * claim's. Claims under 8 letters must still match exactly. The run may have one word more or
 * fewer than the claim.
 */
export function textNamesFuzzy(normalisedText: string, claim: string): boolean {
  if (textNames(normalisedText, claim)) return true;
  const c = normaliseText(claim);
  const compactClaim = c.replace(/ /g, '');
  const maxEdits = Math.floor(compactClaim.length / 8);
  if (maxEdits === 0) return false;
  const words = normalisedText.slice(0, FUZZY_SCAN_CHARS).split(' ').filter(Boolean);
  const n = c.split(' ').length;
  for (let i = 0; i < words.length; i++) {
    for (let len = Math.max(1, n - 1); len <= n + 1 && i + len <= words.length; len++) {
      const run = words.slice(i, i + len).join('');
      if (Math.abs(run.length - compactClaim.length) > maxEdits) continue;
      if (editDistance(run, compactClaim, maxEdits) <= maxEdits) return true;
    }
  }
  return false;
}

/** Levenshtein distance, giving up (returning max + 1) once every path exceeds `max`. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}
