import { reasonText, revokerRoleText } from '../../../../../shared/program/reasons';
import { formatDate } from '../../../lib/dates';

type Party = { name?: string | null; role?: string; authority?: string } | null | undefined;

/**
 * What others did to a certificate on chain — revoked it, or issued its file to another holder — in
 * words, from the structured details the server keeps (who, when, why), dates in the reader's format.
 * Null for any other status, or when the details say nothing.
 */
export function chainReason(status: string, details: Record<string, unknown> | null | undefined): string | null {
  if (!details) return null;
  if (status === 'revoked') {
    const by = details.revoked_by as Party;
    const who = by?.name ?? 'an authorised key';
    const when = typeof details.revoked_at === 'string' ? ` on ${formatDate(details.revoked_at)}` : '';
    const why = typeof details.reason_code === 'number' && details.reason_code ? `: ${reasonText(details.reason_code)}` : '';
    return `Revoked${when} by ${who}${revokerRoleText(by?.role, details.tier)}${why}.`;
  }
  if (status === 'superseded') {
    const by = details.superseded_by as Party;
    const when = typeof details.superseded_at === 'string' ? ` on ${formatDate(details.superseded_at)}` : '';
    return `Superseded${when}: ${by?.name ?? 'an institution'} issued this file to another wallet. This earlier claim was never confirmed by the institution and no longer counts.`;
  }
  return null;
}
