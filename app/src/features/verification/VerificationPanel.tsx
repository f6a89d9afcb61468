// Verify a certificate by ID (or its public link), by SHA-256 hash or by dropping the file (hashed
// here with WebCrypto; the file never leaves the browser). Once a certificate is in view, a dropped
// file is compared with it, both fingerprints side by side. Open to everyone (PRODUCT.md).
import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { FileSearch, Hash, IdCard, Loader2, Search, Upload, X } from 'lucide-react';
import type { VerdictDto } from '../../../../shared/schemas/dto';
import { DEMO_CERTIFICATE_IDS, MESSAGES, STATUS_POLL_INTERVAL_MS } from '../../../../shared/constants';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { trpc } from '../../lib/trpc';
import { useClusterInfo } from '../wallet/cluster';
import { FileDropZone } from '../certificates/components/FileDropZone';
import { certificateIdFrom, formatKb, shortHash } from '../certificates/lib/format';
import type { Comparison } from './components/CompareResult';
import { LookupTabs } from './components/LookupTabs';
import { SHA256_RE, sha256Hex } from './lib/hash';

// What shows a result (the chain verdict step by step, a file comparison) loads with the first
// lookup: a visitor's first paint is only the form.
const VerdictView = lazy(() => import('./components/Results').then((m) => ({ default: m.VerdictView })));
const CompareBlock = lazy(() => import('./components/Results').then((m) => ({ default: m.CompareBlock })));

type Lookup = { kind: 'id'; value: string } | { kind: 'hash'; value: string; file?: { name: string; size: number } };

const HASH_FORMAT = 'A SHA-256 hash is 64 hexadecimal characters';

function errorCode(error: unknown) {
  return (error as { data?: { code?: string } } | null)?.data?.code;
}

function NotFound({ lookup }: { lookup: Lookup }) {
  // The hint only where the demo certificates exist (a server with demo data: embedded chain, the default).
  const demoData = !!useClusterInfo().data?.demoData;
  return (
    <div role="alert" className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-200">
      <p className="font-semibold">Certificate Not Found</p>
      {lookup.kind === 'id' ? (
        <>
          <p className="text-sm">{MESSAGES.verificationIdNotFound}</p>
          {demoData && (
            <p className="mt-2 text-sm opacity-90">
              Demo: certificate IDs {DEMO_CERTIFICATE_IDS[0]} to {DEMO_CERTIFICATE_IDS[DEMO_CERTIFICATE_IDS.length - 1]} are available
              to try.
            </p>
          )}
        </>
      ) : lookup.file ? (
        <p className="text-sm">
          The fingerprint of this file is not recorded on chain. It was never registered, or it has been changed since.
        </p>
      ) : (
        <p className="text-sm">No certificate with this SHA-256 hash is recorded on chain.</p>
      )}
    </div>
  );
}

/** The lookup the address names (?id= or ?hash=): a reload or a shared link shows the same result. */
function lookupOf(params: URLSearchParams, file: { sha256: string; name: string; size: number } | null): Lookup | null {
  const id = params.get('id')?.trim();
  if (id) return { kind: 'id', value: id };
  const hash = params.get('hash')?.trim().toLowerCase();
  if (hash && SHA256_RE.test(hash)) return { kind: 'hash', value: hash, ...(file?.sha256 === hash ? { file: { name: file.name, size: file.size } } : {}) };
  return null;
}

export function VerificationPanel() {
  const [params, setParams] = useSearchParams();
  // The file fingerprinted here (its name and size are not in the address; its hash is).
  const [file, setFile] = useState<{ sha256: string; name: string; size: number } | null>(null);
  const lookup = lookupOf(params, file);
  const linkedHash = params.get('hash')?.trim() ?? '';
  const [tab, setTab] = useState(() => (lookup?.kind === 'hash' ? (lookup.file ? 'file' : 'hash') : 'id'));
  const [idText, setIdText] = useState(lookup?.kind === 'id' ? lookup.value : '');
  const [hashText, setHashText] = useState(lookup?.kind === 'hash' && !lookup.file ? lookup.value : linkedHash);
  const [hashError, setHashError] = useState<string | null>(() => (linkedHash && !SHA256_RE.test(linkedHash.toLowerCase()) ? HASH_FORMAT : null));
  const [hashing, setHashing] = useState(false);
  // The certificate in view (found by ID, link or hash): a dropped file is compared with it.
  const [inView, setInView] = useState<{ sha256: string; label: string } | null>(null);
  const [comparison, setComparison] = useState<Comparison | null>(null);

  /** A new lookup goes into the address (a history entry of its own: Back returns to the one before). */
  const show = (next: { id: string } | { hash: string } | null) => {
    setComparison(null);
    const search = new URLSearchParams(next ?? {}).toString();
    if (search !== params.toString()) setParams(next ?? {});
  };

  // Back and Forward change the address: the fields follow the lookup it names.
  const lookupKey = lookup ? `${lookup.kind}:${lookup.value}` : '';
  useEffect(() => {
    if (lookup?.kind === 'id') setIdText((t) => (certificateIdFrom(t.trim()) === lookup.value ? t : lookup.value));
    if (lookup?.kind === 'hash' && !lookup.file) {
      setHashText((t) => (t.trim().toLowerCase() === lookup.value ? t : lookup.value));
      setHashError(null);
    }
    // Only when the lookup changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lookupKey]);

  // A result is read live: again every 10 s (the seed's polling interval) and when the tab comes back
  // into focus, so a revocation shows without a new lookup. Verdicts are cached and stored by the server.
  const live = { retry: false, refetchInterval: STATUS_POLL_INTERVAL_MS, refetchOnWindowFocus: true } as const;
  const byId = useQuery({
    ...trpc.public.verifyById.queryOptions({ certificateId: lookup?.kind === 'id' ? lookup.value : '' }),
    enabled: lookup?.kind === 'id',
    ...live,
  });
  const byHash = useQuery({
    ...trpc.public.verifyByHash.queryOptions({ sha256: lookup?.kind === 'hash' ? lookup.value : '' }),
    enabled: lookup?.kind === 'hash',
    ...live,
  });
  const active = lookup?.kind === 'id' ? byId : lookup?.kind === 'hash' ? byHash : null;
  const verdict = active?.data as VerdictDto | undefined;
  // A lookup under way (not a live refresh of a result already shown, which replaces it in place).
  const verifying = hashing || (!!active && active.isPending && active.isFetching);
  const notFound =
    !!lookup && !verifying && ((active?.isError && errorCode(active.error) === 'NOT_FOUND') || verdict?.status === 'not_found');

  useEffect(() => {
    if (!lookup) return setInView(null);
    if (lookup.kind === 'hash' && lookup.file) return;
    if (notFound) return setInView(null);
    if (!verdict?.sha256 || verdict.status === 'not_found') return;
    const c = verdict.certificate;
    setInView({ sha256: verdict.sha256, label: c ? `${c.title}, ID ${c.id}` : `SHA-256 ${shortHash(verdict.sha256)}` });
    // `lookup` is read through lookupKey (a new object each render).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [verdict, lookupKey, notFound]);

  // A dropped file that is not the certificate in view: is it anything on chain itself?
  const other = useQuery({
    ...trpc.public.verifyByHash.queryOptions({ sha256: comparison?.actual ?? '' }),
    enabled: !!comparison && comparison.actual !== comparison.expected,
    retry: false,
  });
  const otherVerdict = other.data as VerdictDto | undefined;

  function submitId(e: FormEvent) {
    e.preventDefault();
    const value = certificateIdFrom(idText.trim());
    if (value) show({ id: value });
  }

  function submitHash(e: FormEvent) {
    e.preventDefault();
    const value = hashText.trim().toLowerCase();
    if (!SHA256_RE.test(value)) {
      setHashError(HASH_FORMAT);
      // The result of an earlier lookup is not this one's: it goes, with the address that named it.
      show(null);
      return;
    }
    show({ hash: value });
  }

  async function onFile(f: File) {
    setHashing(true);
    try {
      const value = await sha256Hex(f);
      if (inView) setComparison({ name: f.name, size: f.size, actual: value, expected: inView.sha256, against: inView.label });
      else {
        setFile({ sha256: value, name: f.name, size: f.size });
        show({ hash: value });
      }
    } finally {
      setHashing(false);
    }
  }

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight md:text-3xl">Verify a Certificate</h1>
        <p className="mt-1 text-muted-foreground">
          Check any certificate against the chain record: no wallet or account needed.
        </p>
      </div>

      <Card>
        <CardHeader>
          <CardTitle>
            <h2>Look up</h2>
          </CardTitle>
          <CardDescription>Use the certificate ID, its SHA-256 fingerprint, or the file itself.</CardDescription>
        </CardHeader>
        <CardContent>
          <LookupTabs
            value={tab}
            onChange={setTab}
            tabs={[
              {
                value: 'id',
                label: (
                  <>
                    <IdCard className="size-4" aria-hidden="true" /> ID
                  </>
                ),
                content: (
                  <>
              <form onSubmit={submitId} className="space-y-2">
                <Label htmlFor="verify-id">Certificate ID</Label>
                <p id="verify-id-hint" className="text-xs text-muted-foreground">
                  Or paste the certificate's public link.
                </p>
                <div className="flex flex-col gap-2 sm:flex-row">
                  <Input id="verify-id" placeholder="Enter certificate ID" aria-describedby="verify-id-hint" value={idText} onChange={(e) => setIdText(e.target.value)} autoComplete="off" />
                  <Button type="submit" disabled={!idText.trim() || verifying}>
                    {verifying && lookup?.kind === 'id' ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <Search className="size-4" aria-hidden="true" />}
                    {verifying && lookup?.kind === 'id' ? 'Verifying...' : 'Verify'}
                  </Button>
                </div>
              </form>
            </>
                ),
              },
              {
                value: 'hash',
                label: (
                  <>
                    <Hash className="size-4" aria-hidden="true" /> Hash
                  </>
                ),
                content: (
                  <>
              <form onSubmit={submitHash} className="space-y-2" noValidate>
                <Label htmlFor="verify-hash">SHA-256 hash</Label>
                <div className="flex flex-col gap-2 sm:flex-row">
                  <Input
                    id="verify-hash"
                    placeholder="64 hexadecimal characters"
                    className="font-mono text-xs"
                    value={hashText}
                    aria-invalid={!!hashError || undefined}
                    aria-describedby={hashError ? 'verify-hash-error' : undefined}
                    onChange={(e) => {
                      setHashText(e.target.value);
                      setHashError(null);
                    }}
                    autoComplete="off"
                    spellCheck={false}
                  />
                  <Button type="submit" disabled={!hashText.trim() || verifying}>
                    <Search className="size-4" aria-hidden="true" /> Verify
                  </Button>
                </div>
                {hashError && (
                  <p id="verify-hash-error" className="text-sm font-medium text-destructive">
                    {hashError}
                  </p>
                )}
              </form>
            </>
                ),
              },
              {
                value: 'file',
                label: (
                  <>
                    <FileSearch className="size-4" aria-hidden="true" /> File
                  </>
                ),
                content: (
                  <>
              {inView && (
                <div className="mb-3 flex items-start justify-between gap-2 rounded-lg border bg-muted/40 p-3 text-sm" data-testid="compare-target">
                  <p className="min-w-0 break-words">
                    Compared with the certificate in view: <span className="font-medium">{inView.label}</span>
                  </p>
                  <Button
                    type="button"
                    variant="ghost"
                    size="sm"
                    className="shrink-0"
                    onClick={() => {
                      setInView(null);
                      setComparison(null);
                    }}
                  >
                    <X className="size-4" aria-hidden="true" /> Check the file alone
                  </Button>
                </div>
              )}
              <FileDropZone
                accept=".pdf,.jpg,.jpeg,.png,.webp,application/pdf,image/*"
                label={inView ? 'File to compare with the certificate in view' : 'Certificate file to verify'}
                onFile={(f) => void onFile(f)}
                disabled={hashing}
              >
                <Upload className="mb-3 size-8 text-muted-foreground" aria-hidden="true" />
                <p className="font-medium">Drop the certificate file here, or click to choose it</p>
                <p className="mt-1 text-sm text-muted-foreground">It is fingerprinted in your browser; the file is not uploaded.</p>
              </FileDropZone>
              {!comparison && lookup?.kind === 'hash' && lookup.file && (
                <p className="mt-3 text-sm text-muted-foreground">
                  {lookup.file.name} ({formatKb(lookup.file.size)}) · SHA-256{' '}
                  <code className="break-all font-mono text-xs" data-testid="file-hash">
                    {lookup.value}
                  </code>
                </p>
              )}
            </>
                ),
              },
            ]}
          />
        </CardContent>
      </Card>

      <div aria-live="polite" className="space-y-4">
        {comparison && !hashing && (
          <Suspense fallback={null}>
            <CompareBlock comparison={comparison} other={other.isFetching ? undefined : (otherVerdict ?? null)} verdict={verdict} />
          </Suspense>
        )}
        {verifying ? (
          <p role="status" className="flex items-center gap-2 text-muted-foreground">
            <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Verifying...
          </p>
        ) : notFound && lookup ? (
          <NotFound lookup={lookup} />
        ) : active?.isError ? (
          <p role="alert" className="text-sm text-destructive">
            Verification failed: {active.error.message}
          </p>
        ) : verdict ? (
          <Card>
            <CardHeader>
              <CardTitle>
                {/* Beside a file comparison, this card is about the certificate it was compared with. */}
                <h2>{comparison ? 'The certificate in view' : 'Result'}</h2>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <Suspense fallback={<p className="text-sm text-muted-foreground">Loading the result...</p>}>
                <VerdictView verdict={verdict} />
              </Suspense>
            </CardContent>
          </Card>
        ) : null}
      </div>
    </div>
  );
}
