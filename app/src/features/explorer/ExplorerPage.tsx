// /explorer/address/:address and /explorer/tx/:signature: a read-only explorer of this server's own
// chain (the embedded chain, a validator on the server's machine), which public explorers cannot
// reach from a visitor's browser. Accounts are decoded with the Attesta IDL (certificate, issuer,
// registry) and Token-2022's layouts (the certificate NFT and its metadata); transactions show their
// instructions and events by name. Public clusters link to Solana Explorer instead (shared/explorer.ts).
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Blocks, ExternalLink, FileText, Loader2 } from 'lucide-react';
import type { ExplorerAccountDto, ExplorerAddressDto, ExplorerField, ExplorerTransactionDto } from '../../../../shared/schemas/explorer';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { trpc } from '../../lib/trpc';
import { CopyValue, InfoRow } from '../certificates/components/CopyField';
import { formatDateTime, shortHash } from '../certificates/lib/format';
import { PublicShell } from '../public-view/PublicShell';

function errorCode(error: unknown) {
  return (error as { data?: { code?: string } } | null)?.data?.code;
}

const KIND_LABEL: Record<ExplorerAccountDto['kind'], string> = {
  certificate: 'Attesta certificate record',
  issuer: 'Attesta issuer',
  registry: 'Attesta registry',
  mint: 'Token-2022 mint',
  token_account: 'Token account',
  wallet: 'Wallet (system account)',
  program: 'Program',
  unknown: 'Account',
};

const LAMPORTS_PER_SOL = 1_000_000_000;
function sol(lamports: string) {
  const n = Number(lamports) / LAMPORTS_PER_SOL;
  return `${n.toLocaleString(undefined, { maximumFractionDigits: 9 })} SOL`;
}

const addressPath = (a: string) => `/explorer/address/${encodeURIComponent(a)}`;
const txPath = (s: string) => `/explorer/tx/${encodeURIComponent(s)}`;

function AddressLink({ address, short = true }: { address: string; short?: boolean }) {
  return (
    <Link to={addressPath(address)} title={address} className="font-mono text-xs text-primary underline-offset-4 hover:underline">
      {short ? shortHash(address, 6, 6) : address}
    </Link>
  );
}

/**
 * A zero i64 time (revoked_at, expires_at…) is "not set" on chain: said in words beside the formatted
 * dates — an expiry of zero is "never", any other time "—" — with the raw value on hover.
 */
function unsetTime(field: ExplorerField): string | null {
  if (!/_at$/.test(field.name) || field.kind !== 'number' || field.value !== '0') return null;
  return field.name === 'expires_at' ? 'never' : '—';
}

function FieldValue({ field }: { field: ExplorerField }) {
  const unset = unsetTime(field);
  if (unset) {
    return (
      <span title={`${field.value} on chain: not set`} data-raw={field.value}>
        {unset}
      </span>
    );
  }
  if (field.kind === 'address' && /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(field.value) && field.value !== '11111111111111111111111111111111') {
    return <AddressLink address={field.value} short={false} />;
  }
  if (field.kind === 'time') return <span title={field.value}>{formatDateTime(field.value)}</span>;
  if (field.kind === 'hex' || field.kind === 'address') return <code className="break-all font-mono text-xs">{field.value}</code>;
  return <span className="break-words">{field.value}</span>;
}

function Fields({ fields, label }: { fields: ExplorerField[]; label: string }) {
  if (!fields.length) return null;
  return (
    <dl className="divide-y" aria-label={label}>
      {fields.map((f) => (
        <InfoRow key={f.name} label={f.name}>
          <FieldValue field={f} />
        </InfoRow>
      ))}
    </dl>
  );
}

function Heading({ title, value, label, badge }: { title: string; value: string; label: string; badge?: ReactNode }) {
  return (
    <div className="space-y-2">
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <Blocks className="size-4" aria-hidden="true" /> Explorer of this server's chain (read-only)
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="text-2xl font-bold tracking-tight md:text-3xl">{title}</h1>
        {badge}
      </div>
      <CopyValue value={value} label={label} testId="explorer-subject" />
    </div>
  );
}

function Pill({ children, tone = 'muted' }: { children: ReactNode; tone?: 'muted' | 'ok' | 'fail' }) {
  const cls =
    tone === 'ok'
      ? 'border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-300'
      : tone === 'fail'
        ? 'border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-300'
        : 'bg-muted text-foreground';
  return <span className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold ${cls}`}>{children}</span>;
}

function AccountView({ data }: { data: ExplorerAddressDto }) {
  const a = data.account;
  return (
    <div className="space-y-6">
      <Heading
        title={a ? KIND_LABEL[a.kind] : 'Address'}
        value={data.address}
        label="address"
        badge={a?.type_name ? <Pill>{a.type_name}</Pill> : undefined}
      />
      {a?.kind === 'certificate' && (
        // The record's raw status and tier are not a verdict: what they mean for a verifier (valid or not,
        // checked by whom) is the public verdict's to say.
        <p className="rounded-lg border bg-muted/40 p-3 text-sm" data-testid="explorer-verdict">
          Its status and tier below are the record's raw fields, not a verdict.{' '}
          {data.record_sha256 ? (
            <>
              <Link to={`/verification?hash=${data.record_sha256}`} className="font-medium text-primary underline-offset-4 hover:underline">
                Read its public verdict
              </Link>
              : what was checked, and by whom.
            </>
          ) : (
            <>
              <Link to="/verification" className="font-medium text-primary underline-offset-4 hover:underline">
                Verify the certificate file
              </Link>{' '}
              to read its public verdict.
            </>
          )}
        </p>
      )}
      {data.certificate && (
        <p className="rounded-lg border bg-muted/40 p-3 text-sm" data-testid="explorer-certificate">
          {data.certificate.role === 'record' ? 'The on-chain record of the certificate' : 'The soulbound NFT of the certificate'} “{data.certificate.title}”.{' '}
          <Link to={`/view/${encodeURIComponent(data.certificate.user_id)}/${encodeURIComponent(data.certificate.id)}`} className="font-medium text-primary underline-offset-4 hover:underline">
            Open its certificate page
          </Link>
        </p>
      )}
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>{a?.type_name ? `${a.type_name} data` : 'Account'}</h2>
              </CardTitle>
              {a?.kind === 'certificate' || a?.kind === 'issuer' || a?.kind === 'registry' ? (
                <CardDescription>Decoded with the Attesta program's IDL.</CardDescription>
              ) : a?.kind === 'mint' || a?.kind === 'token_account' ? (
                <CardDescription>Decoded with the Token-2022 program's layout.</CardDescription>
              ) : null}
            </CardHeader>
            <CardContent className="space-y-4">
              {!a ? (
                <p className="text-sm text-muted-foreground">No account exists at this address now; its transactions are listed below.</p>
              ) : (
                <>
                  <Fields fields={a.fields} label="Decoded fields" />
                  {a.decode_error && <p className="text-sm text-muted-foreground">{a.decode_error}</p>}
                  {!a.fields.length && !a.decode_error && <p className="text-sm text-muted-foreground">No data to decode.</p>}
                  {a.extensions.length > 0 && (
                    <div className="space-y-2">
                      <h3 className="text-sm font-semibold">Extensions</h3>
                      <div className="flex flex-wrap gap-2" data-testid="explorer-extensions">
                        {a.extensions.map((e) => (
                          <Pill key={e}>{e}</Pill>
                        ))}
                      </div>
                    </div>
                  )}
                  {a.metadata && (
                    <div className="space-y-2" data-testid="explorer-metadata">
                      <h3 className="text-sm font-semibold">Token metadata</h3>
                      <dl className="divide-y">
                        <InfoRow label="name">{a.metadata.name}</InfoRow>
                        <InfoRow label="symbol">{a.metadata.symbol}</InfoRow>
                        <InfoRow label="uri">
                          {/^https?:\/\//.test(a.metadata.uri) ? (
                            <a href={a.metadata.uri} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 break-all text-primary underline-offset-4 hover:underline">
                              {a.metadata.uri} <ExternalLink className="size-3 shrink-0" aria-hidden="true" />
                              <span className="sr-only">(opens in a new tab)</span>
                            </a>
                          ) : (
                            <span className="break-all">{a.metadata.uri}</span>
                          )}
                        </InfoRow>
                        {a.metadata.update_authority && (
                          <InfoRow label="update authority">
                            <AddressLink address={a.metadata.update_authority} short={false} />
                          </InfoRow>
                        )}
                        {a.metadata.additional.map(([k, v]) => (
                          <InfoRow key={k} label={k}>
                            <span className="break-all">{v}</span>
                          </InfoRow>
                        ))}
                      </dl>
                    </div>
                  )}
                </>
              )}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Transactions</h2>
              </CardTitle>
              <CardDescription>
                {data.transactions.length ? `The latest ${data.transactions.length}${data.has_more ? ' (there are more)' : ''}, newest first.` : 'No transactions.'}
              </CardDescription>
            </CardHeader>
            <CardContent>
              <ol className="divide-y" aria-label="Transactions">
                {data.transactions.map((t) => (
                  <li key={t.signature} className="flex flex-col gap-1 py-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4" data-testid="explorer-tx">
                    <div className="min-w-0 space-y-1">
                      <Link to={txPath(t.signature)} title={t.signature} className="font-mono text-xs text-primary underline-offset-4 hover:underline">
                        {shortHash(t.signature, 10, 10)}
                      </Link>
                      <p className="break-words text-sm">{t.instructions.join(', ') || '—'}</p>
                    </div>
                    <div className="flex shrink-0 flex-wrap items-center gap-2 text-xs text-muted-foreground">
                      <Pill tone={t.ok ? 'ok' : 'fail'}>{t.ok ? 'Success' : 'Failed'}</Pill>
                      <span>slot {t.slot}</span>
                      {t.block_time && <span>{formatDateTime(t.block_time)}</span>}
                    </div>
                  </li>
                ))}
              </ol>
            </CardContent>
          </Card>
        </div>
        <Card className="h-fit">
          <CardHeader>
            <CardTitle>
              <h2>Overview</h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            {a ? (
              <dl className="divide-y">
                <InfoRow label="Balance">{sol(a.lamports)}</InfoRow>
                <InfoRow label="Owner">
                  <span className="space-y-0.5">
                    {a.owner_name && <span className="block">{a.owner_name}</span>}
                    <AddressLink address={a.owner} />
                  </span>
                </InfoRow>
                <InfoRow label="Data">{a.data_length} bytes</InfoRow>
                <InfoRow label="Executable">{a.executable ? 'Yes' : 'No'}</InfoRow>
              </dl>
            ) : (
              <p className="text-sm text-muted-foreground">No account.</p>
            )}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

function TransactionView({ data: t }: { data: ExplorerTransactionDto }) {
  return (
    <div className="space-y-6">
      <Heading title="Transaction" value={t.signature} label="transaction signature" badge={<Pill tone={t.ok ? 'ok' : 'fail'}>{t.ok ? 'Success' : 'Failed'}</Pill>} />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          {t.instructions.map((ix, i) => (
            <Card key={i} data-testid="explorer-instruction" data-name={ix.name ?? ''}>
              <CardHeader>
                <CardTitle>
                  <h2 className="break-words">
                    #{i + 1} {ix.name ?? 'Unknown instruction'}
                  </h2>
                </CardTitle>
                <CardDescription>
                  {ix.program_name ?? 'Program'} · <AddressLink address={ix.program} />
                </CardDescription>
              </CardHeader>
              <CardContent className="space-y-4">
                {ix.args.length > 0 && (
                  <div className="space-y-1">
                    <h3 className="text-sm font-semibold">Arguments</h3>
                    <Fields fields={ix.args} label="Arguments" />
                  </div>
                )}
                {ix.data_hex && (
                  <p className="text-sm text-muted-foreground">
                    Data <code className="break-all font-mono text-xs">{ix.data_hex || '(none)'}</code>
                  </p>
                )}
                <div className="space-y-1">
                  <h3 className="text-sm font-semibold">Accounts</h3>
                  <ol className="divide-y" aria-label="Accounts">
                    {ix.accounts.map((acc, j) => (
                      <li key={j} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                        <span className="text-muted-foreground">{acc.name ?? `#${j + 1}`}</span>
                        <span className="flex flex-wrap items-center gap-2">
                          <AddressLink address={acc.address} />
                          {acc.signer && <Pill>signer</Pill>}
                          {acc.writable && <Pill>writable</Pill>}
                        </span>
                      </li>
                    ))}
                  </ol>
                </div>
              </CardContent>
            </Card>
          ))}
          {t.events.length > 0 && (
            <Card>
              <CardHeader>
                <CardTitle>
                  <h2>Events</h2>
                </CardTitle>
                <CardDescription>Emitted by the Attesta program, decoded with its IDL.</CardDescription>
              </CardHeader>
              <CardContent className="space-y-4">
                {t.events.map((e, i) => (
                  <div key={i} className="space-y-1" data-testid="explorer-event" data-name={e.name}>
                    <h3 className="text-sm font-semibold">{e.name}</h3>
                    <Fields fields={e.fields} label={`${e.name} fields`} />
                  </div>
                ))}
              </CardContent>
            </Card>
          )}
          {t.logs.length > 0 && (
            <Card>
              <CardHeader>
                <CardTitle>
                  <h2>Program logs</h2>
                </CardTitle>
              </CardHeader>
              <CardContent>
                <pre className="max-h-96 overflow-auto whitespace-pre-wrap break-all rounded-lg bg-muted p-3 font-mono text-xs">{t.logs.join('\n')}</pre>
              </CardContent>
            </Card>
          )}
        </div>
        <Card className="h-fit">
          <CardHeader>
            <CardTitle>
              <h2>Overview</h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="divide-y">
              {t.kind && <InfoRow label="Sent by Attesta for">{t.kind.replace(/_/g, ' ')}</InfoRow>}
              <InfoRow label="Slot">{t.slot}</InfoRow>
              <InfoRow label="Time">{formatDateTime(t.block_time)}</InfoRow>
              {t.fee !== null && <InfoRow label="Fee">{sol(t.fee)}</InfoRow>}
              {t.compute_units !== null && <InfoRow label="Compute units">{t.compute_units.toLocaleString()}</InfoRow>}
              {t.error && <InfoRow label="Error">{t.error}</InfoRow>}
              {t.signers.length > 0 && (
                <InfoRow label="Signers">
                  <span className="flex flex-col gap-1">
                    {t.signers.map((s) => (
                      <AddressLink key={s} address={s} />
                    ))}
                  </span>
                </InfoRow>
              )}
            </dl>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

function NotFound({ what }: { what: string }) {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center py-16 text-center" data-testid="explorer-not-found">
      <FileText className="mb-4 size-12 text-muted-foreground" aria-hidden="true" />
      <h1 className="text-2xl font-bold">Not Found on This Chain</h1>
      <p className="mb-6 mt-2 text-muted-foreground">No {what} like this exists on the chain this server runs. Check it and try again.</p>
      <Button asChild>
        <Link to="/verification">
          <ArrowLeft className="size-4" aria-hidden="true" /> Verify a certificate
        </Link>
      </Button>
    </div>
  );
}

function Loading() {
  return (
    <div role="status" className="flex min-h-[40vh] items-center justify-center gap-2 text-muted-foreground">
      <Loader2 className="size-5 animate-spin" aria-hidden="true" /> Reading the chain...
    </div>
  );
}

function useRetry() {
  return (n: number, e: unknown) => errorCode(e) !== 'NOT_FOUND' && errorCode(e) !== 'BAD_REQUEST' && n < 2;
}

function AddressPage({ address }: { address: string }) {
  const q = useQuery({ ...trpc.explorer.address.queryOptions({ address }), retry: useRetry() });
  if (q.isPending) return <Loading />;
  if (q.isError) {
    if (errorCode(q.error) === 'NOT_FOUND' || errorCode(q.error) === 'BAD_REQUEST') return <NotFound what="account or address" />;
    return (
      <p role="alert" className="text-destructive">
        The chain could not be read. {q.error.message}
      </p>
    );
  }
  return <AccountView data={q.data as ExplorerAddressDto} />;
}

function TransactionPage({ signature }: { signature: string }) {
  const q = useQuery({ ...trpc.explorer.transaction.queryOptions({ signature }), retry: useRetry() });
  if (q.isPending) return <Loading />;
  if (q.isError) {
    if (errorCode(q.error) === 'NOT_FOUND' || errorCode(q.error) === 'BAD_REQUEST') return <NotFound what="transaction" />;
    return (
      <p role="alert" className="text-destructive">
        The chain could not be read. {q.error.message}
      </p>
    );
  }
  return <TransactionView data={q.data as ExplorerTransactionDto} />;
}

export default function ExplorerPage() {
  const { address, signature } = useParams();
  return <PublicShell>{signature ? <TransactionPage key={signature} signature={signature} /> : <AddressPage key={address} address={address ?? ''} />}</PublicShell>;
}
