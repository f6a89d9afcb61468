import { editDistance, normaliseText, type ClaimField } from '../documents/index.js';

// When a document does not name what the holder claimed, the rejection says what it names instead:
// the passage of its text closest to the claim. A mistyped claim ("Bachelor of Sciense") then reads
// as the typo it is, and the holder can correct it.

/** Words too common to say anything about a match ("Master of Arts" vs "Doctor of Philosophy"). */
const FILLER = new Set(['of', 'in', 'and', 'the', 'a', 'an', 'for', 'on', 'at', 'to', 'de', 'la', 'le', 'der', 'die', 'und']);
const MAX_LINES = 200;
const MAX_WORDS_PER_LINE = 40;

/** 0..1: how alike two normalised strings are, by letters (edit distance) and by shared words. */
function similarity(a: string, b: string): number {
  const ca = a.replace(/ /g, '');
  const cb = b.replace(/ /g, '');
  const longest = Math.max(ca.length, cb.length);
  if (!longest) return 0;
  const letters = 1 - editDistance(ca, cb) / longest;
  const words = (s: string) => new Set(s.split(' ').filter((w) => w && !FILLER.has(w)));
  const wa = words(a);
  const wb = words(b);
  const shared = [...wa].filter((w) => wb.has(w)).length;
  const union = new Set([...wa, ...wb]).size;
  const overlap = union ? shared / union : 0;
  return 0.6 * letters + 0.4 * overlap;
}

/**
 * The run of words in `text` most like `claim`, as printed (punctuation at its ends trimmed), or
 * null when the text has no words. Candidates are runs within one line, about as long as the claim,
 * that begin and end where a phrase can: never on a filler word the claim does not have there, so
 * the document's whole phrase is quoted ("Diploma in Nursing", not "Diploma in" for a claimed
 * "Diploma in Midwifery").
 */
export function closestText(text: string, claim: string): string | null {
  const target = normaliseText(claim);
  if (!target) return null;
  const claimWords = target.split(' ');
  const n = claimWords.length;
  const startsOpen = FILLER.has(claimWords[0]);
  const endsOpen = FILLER.has(claimWords[n - 1]);
  let best: { text: string; score: number } | null = null;
  for (const line of text.split(/\n+/).slice(0, MAX_LINES)) {
    const words = line.split(/\s+/).filter(Boolean).slice(0, MAX_WORDS_PER_LINE);
    for (let i = 0; i < words.length; i++) {
      for (let len = Math.max(1, n - 1); len <= n + 2 && i + len <= words.length; len++) {
        const raw = words
          .slice(i, i + len)
          .join(' ')
          .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
        const norm = normaliseText(raw);
        // A run of filler words alone ("of the") is never what a certificate names, nor is a phrase cut
        // after or before one ("Diploma in", "in Nursing") unless the claim is cut so too.
        const runWords = norm.split(' ');
        if (!norm || runWords.every((w) => FILLER.has(w))) continue;
        if ((!startsOpen && FILLER.has(runWords[0])) || (!endsOpen && FILLER.has(runWords[runWords.length - 1]))) continue;
        const score = similarity(norm, target) - 0.01 * Math.abs(len - n);
        if (!best || score > best.score) best = { text: raw, score };
      }
    }
  }
  return best?.text ?? null;
}

const CLAIMED: Record<ClaimField, string> = { title: 'you claimed the title', institution: 'you claimed the institution', program: 'you claimed the program', holder: 'your profile name is' };
const NOT_NAMED: Record<ClaimField, string> = { title: 'the claimed title', institution: 'the claimed institution', program: 'the claimed program', holder: 'your profile name' };

/**
 * "The document names “Bachelor of Science”; you claimed the title “Bachelor of Sciense”." for each
 * claim the document does not name (the holder's name: "…; your profile name is “…”"), plus what to
 * do about it.
 */
export function mismatchReason(text: string, missing: { field: ClaimField; claim: string }[], ocr: boolean): { message: string; closest: Record<string, string | null> } {
  const closest: Record<string, string | null> = {};
  const sentences = missing.map(({ field, claim }) => {
    const found = closestText(text, claim);
    closest[field] = found;
    return found
      ? `The document${ocr ? ' (read by OCR)' : ''} names “${found}”; ${CLAIMED[field]} “${claim}”.`
      : `The document${ocr ? ' (read by OCR)' : ''} does not name ${NOT_NAMED[field]} “${claim}”.`;
  });
  const details = missing.some((m) => m.field !== 'holder');
  const name = missing.some((m) => m.field === 'holder');
  const fix = details && name
    ? 'If you mistyped them, correct the details (and your full name on the Profile page, then choose Try Again) and the file is verified again.'
    : name
      ? 'If your profile name is not written as on the certificate, correct it on the Profile page, then choose Try Again.'
      : 'If you mistyped it, correct the details and the file is verified again.';
  return { message: `${sentences.join(' ')} ${fix}`, closest };
}
