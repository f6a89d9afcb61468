// Issuing a certificate to a holder: the form and file go to issuer.issue, the institution's wallet
// signs the prepared record. Open once the domain is proven and the operator has approved.
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { FileText, Loader2, Send } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { lazyResolver } from '../../../lib/lazy-resolver';
import { toast } from '../../../lib/toast';
import { trpcClient } from '../../../lib/trpc';
import { FileDropZone } from '../../certificates/components/FileDropZone';
import { formatKb, todayIso } from '../../certificates/lib/format';
import { postTrpcForm } from '../../certificates/lib/upload';
import { useWalletSession } from '../../wallet/WalletSession';
import { errorMessage, signPrepared, useRefreshInstitution, type Prepared } from '../api';
import type { IssueFormValues } from '../lib/forms';
import { FieldError } from './FieldError';
import type { IssuerView } from './IssuerProof';
import { CERTIFICATE_FILE_ACCEPT, certificateFileProblem } from '../../certificates/lib/files';

const issueValidation = lazyResolver<IssueFormValues>(() => import('../lib/forms').then((m) => m.issueResolver));

export function IssueCard({ me }: { me: IssuerView }) {
  const wallet = useWalletSession();
  const refresh = useRefreshInstitution();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<IssueFormValues>({
    resolver: issueValidation.resolver,
    reValidateMode: 'onSubmit',
    defaultValues: { title: '', program_name: '', issue_date: todayIso(), holder_wallet: '', expires_on: '', certificate_file: null },
  });
  const { register, handleSubmit, formState, clearErrors, setError, control, reset, watch } = form;
  const errors = formState.errors;
  const file = watch('certificate_file');
  useEffect(issueValidation.preload, []);
  const ready = me.may_act;

  async function onSubmit(values: IssueFormValues) {
    setBusy(true);
    setFailure(null);
    const body = new FormData();
    body.set('title', values.title.trim());
    body.set('program_name', values.program_name.trim());
    body.set('issue_date', values.issue_date.trim());
    body.set('holder_wallet', values.holder_wallet.trim());
    // The resolver hands back zod's output: an empty expiry is undefined there.
    const expires = values.expires_on?.trim();
    if (expires) body.set('expires_on', expires);
    body.set('certificate_file', values.certificate_file!, values.certificate_file!.name);
    try {
      const prepared = await postTrpcForm<Prepared>('issuer.issue', body);
      await signPrepared(wallet, prepared, (signedTransaction) => trpcClient.issuer.submit.mutate({ signedTransaction }));
      toast.success('Certificate Issued', { description: 'The holder sees it in their list, confirmed by your institution.' });
      reset();
      await refresh();
    } catch (e) {
      setFailure(errorMessage(e));
      toast.error('Issuing Failed', { description: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  }

  function pickFile(next: File, onChange: (f: File | null) => void) {
    const problem = certificateFileProblem(next);
    if (problem) {
      setError('certificate_file', { message: problem });
      return;
    }
    clearErrors('certificate_file');
    onChange(next);
  }

  const text = (name: 'title' | 'program_name' | 'holder_wallet', label: string, placeholder: string, className = '') => (
    <div className={`space-y-2 ${className}`}>
      <Label htmlFor={`issue-${name}`}>{label}</Label>
      <Input id={`issue-${name}`} placeholder={placeholder} disabled={busy} aria-invalid={!!errors[name] || undefined} aria-describedby={errors[name] ? `issue-${name}-error` : undefined} {...register(name, { onChange: () => clearErrors(name) })} />
      <FieldError id={`issue-${name}-error`} message={errors[name]?.message} />
    </div>
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Issue a certificate</h2>
        </CardTitle>
        <CardDescription>Your wallet signs the record: the holder sees it at once, confirmed by {me.name}.</CardDescription>
      </CardHeader>
      <CardContent>
        {!ready ? (
          <p className="text-sm text-muted-foreground">Issuing opens once your domain is proven and the operator has approved your institution.</p>
        ) : (
          <form onSubmit={handleSubmit(onSubmit)} noValidate className="grid gap-4 sm:grid-cols-2">
            {text('title', 'Certificate title', 'e.g. Bachelor of Science', 'sm:col-span-2')}
            {text('program_name', 'Program', 'e.g. Computer Science')}
            <div className="space-y-2">
              <Label htmlFor="issue-issue_date">Issue date</Label>
              <Input id="issue-issue_date" type="date" max={todayIso()} disabled={busy} aria-invalid={!!errors.issue_date || undefined} aria-describedby={errors.issue_date ? 'issue-issue_date-error' : undefined} {...register('issue_date', { onChange: () => clearErrors('issue_date') })} />
              <FieldError id="issue-issue_date-error" message={errors.issue_date?.message} />
            </div>
            {text('holder_wallet', 'Holder’s wallet address', 'e.g. 7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', 'sm:col-span-2')}
            <div className="space-y-2">
              <Label htmlFor="issue-expires_on">Expires on (optional)</Label>
              <Input id="issue-expires_on" type="date" min={todayIso()} disabled={busy} aria-invalid={!!errors.expires_on || undefined} aria-describedby={errors.expires_on ? 'issue-expires_on-error' : undefined} {...register('expires_on', { onChange: () => clearErrors('expires_on') })} />
              <FieldError id="issue-expires_on-error" message={errors.expires_on?.message} />
            </div>
            <div className="space-y-2 sm:col-span-2">
              <span className="text-sm font-medium" id="issue-file-label">
                Certificate file
              </span>
              <Controller
                control={control}
                name="certificate_file"
                render={({ field }) => (
                  <FileDropZone accept={CERTIFICATE_FILE_ACCEPT} label="Certificate file to issue" onFile={(f) => pickFile(f, field.onChange)} disabled={busy} invalid={!!errors.certificate_file} describedBy={errors.certificate_file ? 'issue-file-error' : undefined} className="p-6">
                    {file ? (
                      <span className="flex items-center justify-center gap-2 text-sm">
                        <FileText className="size-4" aria-hidden="true" /> {file.name} ({formatKb(file.size)})
                      </span>
                    ) : (
                      <span className="text-sm text-muted-foreground">Drop the PDF or image here, or click to choose it</span>
                    )}
                  </FileDropZone>
                )}
              />
              <FieldError id="issue-file-error" message={errors.certificate_file?.message} />
            </div>
            {failure && (
              <p role="alert" className="text-sm font-medium text-destructive sm:col-span-2">
                {failure}
              </p>
            )}
            <div className="sm:col-span-2">
              <Button type="submit" disabled={busy}>
                {busy ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <Send className="size-4" aria-hidden="true" />}
                {busy ? 'Issuing...' : 'Issue certificate'}
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
