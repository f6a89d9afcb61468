// One way to show dates and times everywhere, in the reader's locale (Intl.DateTimeFormat):
// "June 15, 2024" and "June 15, 2024 at 3:04 PM" in English, "15. Juni 2024" in German…

const calendarDay = /^\d{4}-\d{2}-\d{2}$/;
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(key: string, options: Intl.DateTimeFormatOptions) {
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.DateTimeFormat(undefined, options)));
  return f;
}

function parse(value: string): Date | null {
  const d = calendarDay.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * A date: "June 15, 2024". Calendar dates (YYYY-MM-DD, e.g. an issue date) are shown as that day
 * wherever the reader is; instants (ISO timestamps) as their day in the reader's time zone.
 */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const d = parse(value);
  if (!d) return value;
  return calendarDay.test(value) ? formatter('day-utc', { dateStyle: 'long', timeZone: 'UTC' }).format(d) : formatter('day', { dateStyle: 'long' }).format(d);
}

/** An instant with its time: "June 15, 2024 at 3:04 PM" (the same date as formatDate, plus the time). */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '—';
  const d = value instanceof Date ? value : parse(value);
  if (!d) return String(value);
  return formatter('day-time', { dateStyle: 'long', timeStyle: 'short' }).format(d);
}

/** Hour and minute only (chat messages, SEED-SPEC §2). */
export function formatTime(value: Date): string {
  return formatter('time', { hour: '2-digit', minute: '2-digit' }).format(value);
}
