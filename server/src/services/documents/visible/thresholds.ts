// The thresholds of the visibility check (see ../visible.ts), in one place to tune.
//
// Thresholds (VISIBILITY) were set on pdf-lib, Chromium (Skia) and pdfTeX output: black to #d9d9d9
// text at 6–12 pt is visible; #e6e6e6 is borderline; white on white, 5 % opacity, 1–3 pt, a clip or
// an opaque shape over it are not.
export const VISIBILITY = {
  /** Pixels per PDF point (72 dpi): 8–10 pt text is 8–10 px high, stems about a pixel. */
  scale: 1,
  /** A larger page is drawn at a lower scale (about a 36 × 36 inch poster at scale 1). */
  maxPixels: 6_000_000,
  /**
   * Contrast (colour distance from what is beneath it, 0–255 with luminance weights 0.30/0.59/0.11)
   * a glyph must reach somewhere: the most any of its pixels differs between A and B. Black text
   * reaches 130–250 at 6–12 pt (anti-aliasing softens thin stems), grey #bfbfbf 40–65, #d9d9d9
   * 25–38, #e6e6e6 17–25, white on white or a tint within 5 % of its background under 13.
   */
  minContrast: 24,
  /** Its ink: pixels that differ by at least this share of its contrast (and at least 10)… */
  inkOfContrast: 0.4,
  minInkDistance: 10,
  /** …at least this many, and this share of its painted extent (a covered glyph keeps no more than a neighbour's edge). */
  minInkPixels: 2,
  inkShare: 0.03,
  /** Em height in points under which text is not readable on a page (a 1-pt disclaimer hides nothing). */
  minEmPt: 4,
  /** Em width (font size × horizontal scaling) under which text is squeezed unreadable. */
  minEmWidthPt: 2,
  /**
   * …and at least this share of its em square (a letter's ink covers 5–40 % of it, an "l" the least):
   * whatever size the font claims, a glyph its own font matrix shrinks to a speck is not readable.
   */
  inkOfEm: 0.02,
  /** Re-draws at most, to separate text drawn over other text. */
  maxRedraws: 6,
  /** Glyphs recorded per page at most; text past them counts as not visible. */
  maxGlyphs: 50_000,
  /** Pixels compared per page at most (a page of text is well under 1 M); glyphs past them count as not visible. */
  maxJudgedPixels: 30_000_000,
};
