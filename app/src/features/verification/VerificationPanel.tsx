// Verify a certificate by ID, by SHA-256 hash or by dropping the file (hashed here with WebCrypto;
// the file never leaves the browser). Open to everyone (PRODUCT.md).
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { FileSearch, Hash, IdCard, Loader2, Search, Upload } from 'lucide-react';
import type { VerdictDto } from '../../../../shared/schemas/dto';
import { DEMO_CERTIFICATE_IDS, MESSAGES } from '../../../../shared/constants';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { trpc } from '../../lib/trpc';
import { FileDropZone } from '../certificates/components/FileDropZone';
import { formatKb } from '../certificates/lib/format';
import { ChainVerdict, VerdictSummary } from './components/ChainVerdict';
import { LookupTabs } from './components/LookupTabs';
import { SHA256_RE, sha256Hex } from './lib/hash';

type Lookup = { kind: 'id'; value: string } | { kind: 'hash'; value: string; file?: { name: string; size: number } };

function errorCode(error: unknown) {
  return (error as { data?: { code?: string } } | null)?.data?.code;
}

function NotFound({ lookup }: { lookup: Lookup }) {
  return (
    <div role="alert" className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-200">
      <p className="font-semibold">Certificate Not Found</p>
      {lookup.kind === 'id' ? (
        <>
          <p className="text-sm">{MESSAGES.verificationIdNotFound}</p>
          <p className="mt-2 text-sm opacity-90">
            Demo: certificate IDs {DEMO_CERTIFICATE_IDS[0]} to {DEMO_CERTIFICATE_IDS[DEMO_CERTIFICATE_IDS.length - 1]} are available
            to try.
          </p>
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

function VerdictView({ verdict }: { verdict: VerdictDto }) {
  const cert = verdict.certificate;
  return (
    <div className="space-y-4" data-testid="verdict">
      <VerdictSummary verdict={verdict} />
      {cert && (
        <div className="rounded-xl border p-4">
          <p className="text-lg font-semibold">{cert.title}</p>
          <p className="text-sm text-muted-foreground">
            {cert.institution_name} · {cert.program_name} · issued {cert.issue_date}
          </p>
          <p className="text-sm text-muted-foreground">Holder: {cert.holder_name || 'Unnamed holder'}</p>
          <Button asChild variant="link" className="h-auto px-0">
            <Link to={`/view/${cert.user_id}/${cert.id}`}>Open the certificate page</Link>
          </Button>
        </div>
      )}
      <ChainVerdict verdict={verdict} />
    </div>
  );
}

export function VerificationPanel() {
  const [tab, setTab] = useState('id');
  const [idText, setIdText] = useState('');
  const [hashText, setHashText] = useState('');
  const [hashError, setHashError] = useState<string | null>(null);
  const [hashing, setHashing] = useState(false);
  const [lookup, setLookup] = useState<Lookup | null>(null);

  const byId = useQuery({
    ...trpc.public.verifyById.queryOptions({ certificateId: lookup?.kind === 'id' ? lookup.value : '' }),
    enabled: lookup?.kind === 'id',
    retry: false,
  });
  const byHash = useQuery({
    ...trpc.public.verifyByHash.queryOptions({ sha256: lookup?.kind === 'hash' ? lookup.value : '' }),
    enabled: lookup?.kind === 'hash',
    retry: false,
  });
  const active = lookup?.kind === 'id' ? byId : lookup?.kind === 'hash' ? byHash : null;
  const verdict = active?.data as VerdictDto | undefined;
  const verifying = hashing || (!!active && active.isFetching);
  const notFound =
    !!lookup && !verifying && ((active?.isError && errorCode(active.error) === 'NOT_FOUND') || verdict?.status === 'not_found');

  function submitId(e: FormEvent) {
    e.preventDefault();
    const value = idText.trim();
    if (value) setLookup({ kind: 'id', value });
  }

  function submitHash(e: FormEvent) {
    e.preventDefault();
    const value = hashText.trim().toLowerCase();
    if (!SHA256_RE.test(value)) {
      setHashError('A SHA-256 hash is 64 hexadecimal characters');
      return;
    }
    setLookup({ kind: 'hash', value });
  }

  async function onFile(file: File) {
    setHashing(true);
    try {
      const value = await sha256Hex(file);
      setLookup({ kind: 'hash', value, file: { name: file.name, size: file.size } });
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
                <div className="flex flex-col gap-2 sm:flex-row">
                  <Input id="verify-id" placeholder="Enter certificate ID" value={idText} onChange={(e) => setIdText(e.target.value)} autoComplete="off" />
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
              <FileDropZone accept=".pdf,.jpg,.jpeg,.png,.webp,application/pdf,image/*" label="Certificate file to verify" onFile={(f) => void onFile(f)} disabled={hashing}>
                <Upload className="mb-3 size-8 text-muted-foreground" aria-hidden="true" />
                <p className="font-medium">Drop the certificate file here, or click to choose it</p>
                <p className="mt-1 text-sm text-muted-foreground">It is fingerprinted in your browser; the file is not uploaded.</p>
              </FileDropZone>
              {lookup?.kind === 'hash' && lookup.file && (
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

      <div aria-live="polite">
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
                <h2>Result</h2>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <VerdictView verdict={verdict} />
            </CardContent>
          </Card>
        ) : null}
      </div>
    </div>
  );
}
