// What the server benches print: columns padded to their widest cell, and the median of a run's figures.

/** The rows as lines, each column padded to its widest cell and columns two spaces apart. */
export function tableLines(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  '));
}

/** The middle value (the upper one of an even count). */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
