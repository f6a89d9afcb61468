// The append-only audit log, newest first, paged: each entry says when, what (in words and its code),
// who, on what, with which details (a revocation's reason and note, a domain check's outcome…) and links
// its transaction to the explorer. A list rather than a table, so that it wraps at any width instead of
// widening the page.
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight, ExternalLink } from 'lucide-react';
import { REASON_NAMES, REASON_TEXT, type ReasonCode } from '../../../../../shared/program/reasons';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { formatDateTime } from '../../../lib/dates';
import { trpc, type trpcClient } from '../../../lib/trpc';
import { CopyValue } from '../../certificates/components/CopyField';
import { explorerTxUrl, shortHash } from '../../certificates/lib/format';
import { useClusterInfo } from '../../wallet/cluster';

const AUDIT_PAGE = 20;

type AuditEntry = Awaited<ReturnType<typeof trpcClient.operator.audit.query>>['entries'][number];

const ACTION_TEXT: Record<string, string> = {
  'issuer.register': 'Registered an institution',
  'issuer.check_domain': 'Checked its domain',
  'issuer.issue': 'Issued a certificate',
  'issuer.confirm': 'Confirmed a certificate',
  'issuer.decline': 'Declined a confirmation request',
  'issuer.revoke': 'Revoked a certificate',
  'holder.request_confirmation': 'Asked an institution to confirm a certificate',
  'operator.approve': 'Approved an institution',
  'operator.suspend': 'Suspended an institution',
  'operator.revoke': 'Revoked a certificate for fraud',
  'platform.demo_approve': 'Approved the demo institution (demo seed)',
  'platform.domain_proven': 'Domain proof holds again',
  'platform.domain_lapsed': 'Domain proof lapsed',
};

/** A revocation's reason code name in words ("revoked as fraudulent"); anything else (a decline's reason) as written. */
function reasonText(reason: string): string {
  const code = Object.entries(REASON_NAMES).find(([, name]) => name === reason)?.[0];
  return code === undefined ? reason : REASON_TEXT[Number(code) as ReasonCode];
}

/** An institution's key → "Name (domain)", from the console's list of institutions. */
type InstitutionNames = Map<string, string>;

/** The details worth reading, one line each (what the entry's action stored beside it). */
function detailLines(e: AuditEntry, names: InstitutionNames): { label: string; text: string }[] {
  const d = (e.details ?? {}) as Record<string, unknown>;
  const str = (k: string) => (typeof d[k] === 'string' && (d[k] as string).trim() ? (d[k] as string) : null);
  const out: { label: string; text: string }[] = [];
  const name = str('name');
  const domain = str('domain');
  if (name || domain) out.push({ label: 'Institution', text: [name, domain && (name ? `(${domain})` : domain)].filter(Boolean).join(' ') });
  if (str('title')) out.push({ label: 'Certificate', text: str('title')! });
  if (str('holder_wallet')) out.push({ label: 'Holder', text: str('holder_wallet')! });
  const asked = str('issuer');
  if (asked) out.push({ label: 'Institution asked', text: names.has(asked) ? `${names.get(asked)} ${asked}` : asked });
  if (typeof d.proven === 'boolean') out.push({ label: 'Outcome', text: d.proven ? `proven${d.method ? ` by ${d.method === 'dns' ? 'DNS TXT record' : 'HTTPS file'}` : ''}` : 'not proven' });
  if (str('reason')) out.push({ label: 'Reason', text: reasonText(str('reason')!) });
  if (str('note')) out.push({ label: 'Note', text: str('note')! });
  return out;
}

function AuditItem({ e, rpcUrl, names }: { e: AuditEntry; rpcUrl: string | null | undefined; names: InstitutionNames }) {
  const details = detailLines(e, names);
  const actor = e.actor_role === 'issuer' ? names.get(e.actor_wallet) : undefined;
  return (
    <li className="grid gap-1 py-3 text-sm lg:grid-cols-[14rem_minmax(0,1fr)] lg:gap-4" data-testid="audit-row" data-action={e.action}>
      <p className="text-muted-foreground">
        <time dateTime={e.at}>{formatDateTime(e.at)}</time>
      </p>
      <div className="min-w-0 space-y-1">
        <p>
          <span className="font-medium">{ACTION_TEXT[e.action] ?? e.action}</span> <code className="font-mono text-xs text-muted-foreground">{e.action}</code>
        </p>
        <p>
          <span className="text-muted-foreground">by {e.actor_role} </span>
          {actor && <span>{actor} </span>}
          <CopyValue value={e.actor_wallet} label={`${e.actor_role} wallet`} short />
        </p>
        {e.target && (
          <p data-testid="audit-target">
            <span className="text-muted-foreground">Target: </span>
            <CopyValue value={e.target} label="target" />
          </p>
        )}
        {details.length > 0 && (
          <dl className="space-y-0.5" data-testid="audit-details">
            {details.map((l) => (
              <div key={l.label}>
                <dt className="inline text-muted-foreground">{l.label}: </dt>
                <dd className="inline whitespace-pre-line">{l.text}</dd>
              </div>
            ))}
          </dl>
        )}
        {e.signature && (
          <p>
            <span className="text-muted-foreground">Transaction </span>
            <a className="font-mono text-xs text-primary underline-offset-4 hover:underline" href={explorerTxUrl(e.signature, rpcUrl)} target="_blank" rel="noreferrer" data-testid="audit-transaction">
              {shortHash(e.signature)}
              <ExternalLink className="ml-1 inline size-3" aria-hidden="true" />
              <span className="sr-only"> (opens the explorer in a new tab)</span>
            </a>
          </p>
        )}
      </div>
    </li>
  );
}

export function AuditCard() {
  // Cursors of the pages seen so far: [undefined (newest), next of page 1, …].
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const page = cursors.length - 1;
  const audit = useQuery({ ...trpc.operator.audit.queryOptions({ limit: AUDIT_PAGE, before: cursors[page] }), placeholderData: (prev) => prev });
  const rpcUrl = useClusterInfo().data?.rpcUrl;
  // The same list the institutions card shows (one cached query): names beside the keys.
  const issuers = useQuery(trpc.operator.issuers.queryOptions({ status: 'all' }));
  const names: InstitutionNames = useMemo(() => new Map((issuers.data ?? []).map((i) => [i.authority, `${i.name} (${i.domain})`])), [issuers.data]);
  const entries = audit.data?.entries ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Audit log</h2>
        </CardTitle>
        <CardDescription>Every operator and institution action, newest first. Nothing in it is ever changed or deleted.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {audit.isPending ? (
          <p className="text-sm text-muted-foreground">Loading the audit log...</p>
        ) : entries.length === 0 ? (
          <p className="text-sm text-muted-foreground">No actions yet.</p>
        ) : (
          <ol className="divide-y" aria-label={`Audit log, page ${page + 1}`}>
            {entries.map((e) => (
              <AuditItem key={e.id} e={e} rpcUrl={rpcUrl} names={names} />
            ))}
          </ol>
        )}
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Button variant="outline" size="sm" disabled={page === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>
            <ChevronLeft className="size-4" aria-hidden="true" /> Newer
          </Button>
          <span className="text-sm text-muted-foreground">Page {page + 1}</span>
          <Button variant="outline" size="sm" disabled={!audit.data?.next || audit.isPlaceholderData} onClick={() => setCursors((c) => [...c, audit.data!.next!])}>
            Older <ChevronRight className="size-4" aria-hidden="true" />
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
