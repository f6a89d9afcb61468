// /certificates/create: details form + file; the server converts images, stores the PDF, anchors its
// SHA-256 on chain and queues verification. Upload progress is the real byte count (XHR).
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useForm, Controller } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from '../../lib/toast';
import { ArrowLeft, CheckCircle2, FileText, Loader2, Upload, UserRound, X, XCircle } from 'lucide-react';
import { MESSAGES } from '../../../../shared/constants';
import type { CertificateDto } from '../../../../shared/schemas/dto';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { FileDropZone } from './components/FileDropZone';
import { PageHeader } from './components/PageHeader';
import { formatKb, todayIso } from './lib/format';
import { postTrpcForm, UploadError } from './lib/upload';
import { trpc } from '../../lib/trpc';
import { useAuth } from '../auth/AuthProvider';
import { lazyResolver } from '../../lib/lazy-resolver';
import type { CreateCertificateFormValues } from './lib/create-form';
import { CERTIFICATE_FILE_ACCEPT, certificateFileProblem, extensionOf } from './lib/files';

type Stage = 'idle' | 'uploading' | 'converting' | 'processing' | 'success' | 'error';

type FormValues = CreateCertificateFormValues;

const validation = lazyResolver<FormValues>(() => import('./lib/create-form').then((m) => m.createCertificateResolver));

const STAGE_TEXT: Record<Stage, string> = {
  idle: '',
  uploading: 'Uploading certificate...',
  converting: 'Converting image to PDF...',
  processing: 'Recording the fingerprint on chain and starting verification...',
  success: 'Certificate created',
  error: 'Upload failed',
};
// SEED-SPEC.md §9: +5 every 200 ms while waiting, capped at 95.
const TICK_MS = 200;
const TICK_STEP = 5;
const PROGRESS_CAP = 95;

export default function CreateCertificatePage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // The check looks for the holder's own name in the document: without one nothing could be verified.
  const { user } = useAuth();
  const holderName = user?.full_name?.trim() ?? '';
  const nameMissing = !!user && !holderName;
  const [stage, setStage] = useState<Stage>('idle');
  const [progress, setProgress] = useState(0);
  const [failure, setFailure] = useState<string | null>(null);
  const [existingId, setExistingId] = useState<string | null>(null);
  const ticker = useRef<ReturnType<typeof setInterval> | null>(null);
  const redirect = useRef<ReturnType<typeof setTimeout> | null>(null);

  const form = useForm<FormValues>({
    resolver: validation.resolver,
    // Errors are shown on submit and cleared on edit (SEED-SPEC.md §5), not re-checked per keystroke.
    reValidateMode: 'onSubmit',
    defaultValues: { title: '', institution_name: '', program_name: '', issue_date: todayIso(), certificate_file: null },
  });
  const { register, handleSubmit, formState, clearErrors, setError, control, watch } = form;
  const errors = formState.errors;
  const file = watch('certificate_file');
  const busy = stage === 'uploading' || stage === 'converting' || stage === 'processing' || stage === 'success';

  useEffect(validation.preload, []);

  useEffect(
    () => () => {
      if (ticker.current) clearInterval(ticker.current);
      if (redirect.current) clearTimeout(redirect.current);
    },
    [],
  );

  // Each field's error clears as soon as it is edited (SEED-SPEC.md §5).
  const field = (name: Exclude<keyof FormValues, 'certificate_file'>) =>
    register(name, { onChange: () => clearErrors(name) });

  function startTicker() {
    if (ticker.current) clearInterval(ticker.current);
    ticker.current = setInterval(() => setProgress((p) => Math.min(PROGRESS_CAP, p + TICK_STEP)), TICK_MS);
  }
  function stopTicker() {
    if (ticker.current) clearInterval(ticker.current);
    ticker.current = null;
  }

  async function onSubmit(values: FormValues) {
    const chosen = values.certificate_file!;
    const isImage = extensionOf(chosen.name) !== 'pdf';
    setFailure(null);
    setExistingId(null);
    setStage('uploading');
    setProgress(0);
    const body = new FormData();
    body.set('title', values.title.trim());
    body.set('institution_name', values.institution_name.trim());
    body.set('program_name', values.program_name.trim());
    body.set('issue_date', values.issue_date.trim());
    body.set('certificate_file', chosen, chosen.name);
    try {
      const created = await postTrpcForm<CertificateDto>('certificate.create', body, {
        onUploadProgress: (f) => setProgress(Math.round(f * 50)),
        onUploaded: () => {
          // Bytes are on the server; what remains is its work, shown as a capped progression.
          setStage(isImage ? 'converting' : 'processing');
          setProgress(isImage ? 50 : 75);
          startTicker();
        },
      });
      stopTicker();
      setProgress(90);
      await queryClient.invalidateQueries(trpc.certificate.pathFilter());
      setStage('success');
      setProgress(100);
      toast.success('Certificate Created', {
        description: 'Your certificate has been successfully created and verification has started.',
      });
      // The detail page then announces the verdict even if it lands before the page loads.
      redirect.current = setTimeout(() => navigate(`/certificates/${created.id}`, { state: { justCreated: true } }), 1000);
    } catch (error) {
      stopTicker();
      const reason = error instanceof Error ? error.message : String(error);
      // A file the holder already added: trying again cannot help; their certificate of it is offered instead.
      const existing = error instanceof UploadError ? (error.certificateId ?? null) : null;
      setProgress(0);
      setStage('error');
      setFailure(reason);
      setExistingId(existing);
      if (existing) {
        toast.error('Certificate Creation Failed', {
          description: reason,
          action: { label: 'Open it', onClick: () => navigate(`/certificates/${existing}`) },
        });
      } else {
        toast.error('Certificate Creation Failed', {
          description: `Failed to create certificate. Please try again.${reason ? ` ${reason}` : ''}`,
        });
      }
    }
  }

  function pickFile(next: File, onChange: (f: File | null) => void) {
    const problem = certificateFileProblem(next);
    if (problem) {
      setError('certificate_file', { message: problem });
      return;
    }
    clearErrors('certificate_file');
    if (stage === 'error') setStage('idle');
    onChange(next);
  }

  const textField = (name: Exclude<keyof FormValues, 'certificate_file' | 'issue_date'>, label: string, placeholder: string) => (
    <div className="space-y-2">
      <Label htmlFor={name}>{label}</Label>
      <Input
        id={name}
        placeholder={placeholder}
        aria-invalid={!!errors[name] || undefined}
        aria-describedby={errors[name] ? `${name}-error` : undefined}
        disabled={busy}
        {...field(name)}
      />
      {errors[name] && (
        <p id={`${name}-error`} className="text-sm font-medium text-destructive">
          {errors[name]?.message}
        </p>
      )}
    </div>
  );

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <Button asChild variant="ghost" size="sm" className="-ml-2">
        <Link to="/certificates">
          <ArrowLeft className="size-4" aria-hidden="true" /> Back to Certificates
        </Link>
      </Button>
      <PageHeader title="New Certificate" description="Upload a certificate to record it on chain and have it verified." />

      {nameMissing && (
        <div role="alert" id="profile-name-needed" data-testid="profile-name-needed" className="flex items-start gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
          <UserRound className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          <div className="space-y-2 text-sm">
            <p className="font-semibold">Add your full name first</p>
            <p>Verification checks that the certificate names you, so it needs your name as your certificates write it. Add it on your profile, then come back.</p>
            <Button asChild size="sm" variant="outline">
              <Link to="/profile">Go to Profile</Link>
            </Button>
          </div>
        </div>
      )}

      <form onSubmit={handleSubmit(onSubmit)} noValidate className="space-y-6">
        <Card>
          <CardHeader>
            <CardTitle>
              <h2>Certificate Details</h2>
            </CardTitle>
            <CardDescription>
              Enter the details exactly as they appear on the certificate: verification compares them
              {holderName ? <>, and your name ({holderName}),</> : ' and your name'} with the document.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            <div className="sm:col-span-2">{textField('title', 'Certificate Title', 'e.g. Bachelor of Science')}</div>
            {textField('institution_name', 'Institution Name', 'e.g. Stanford University')}
            {textField('program_name', 'Program Name', 'e.g. Computer Science')}
            <div className="space-y-2">
              <Label htmlFor="issue_date">Issue Date</Label>
              <Input
                id="issue_date"
                type="date"
                max={todayIso()}
                aria-invalid={!!errors.issue_date || undefined}
                aria-describedby={errors.issue_date ? 'issue_date-error' : undefined}
                disabled={busy}
                {...field('issue_date')}
              />
              {errors.issue_date && (
                <p id="issue_date-error" className="text-sm font-medium text-destructive">
                  {errors.issue_date.message}
                </p>
              )}
            </div>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>
              <h2>Certificate File</h2>
            </CardTitle>
            <CardDescription>PDF, or a JPG, JPEG, PNG or WEBP image (converted to PDF). Up to 10 MB.</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            <Controller
              control={control}
              name="certificate_file"
              render={({ field: { onChange } }) =>
                file ? (
                  <div className="flex items-center gap-3 rounded-xl border p-4">
                    <FileText className="size-8 shrink-0 text-primary" aria-hidden="true" />
                    <div className="min-w-0 flex-1">
                      <p className="truncate font-medium" data-testid="selected-file-name">
                        {file.name}
                      </p>
                      <p className="text-sm text-muted-foreground" data-testid="selected-file-size">
                        {formatKb(file.size)}
                      </p>
                    </div>
                    {!busy && (
                      <Button type="button" variant="ghost" size="icon" aria-label="Remove file" onClick={() => onChange(null)}>
                        <X className="size-4" aria-hidden="true" />
                      </Button>
                    )}
                  </div>
                ) : (
                  <FileDropZone
                    accept={CERTIFICATE_FILE_ACCEPT}
                    label="Certificate file"
                    invalid={!!errors.certificate_file}
                    describedBy={errors.certificate_file ? 'certificate_file-error' : 'certificate_file-hint'}
                    disabled={busy}
                    onFile={(f) => pickFile(f, onChange)}
                  >
                    <Upload className="mb-3 size-10 text-muted-foreground" aria-hidden="true" />
                    <p className="font-medium">Drag and drop your certificate here, or click to browse</p>
                    <p id="certificate_file-hint" className="mt-1 text-sm text-muted-foreground">
                      PDF, JPG, JPEG, PNG or WEBP
                    </p>
                  </FileDropZone>
                )
              }
            />
            {errors.certificate_file && (
              <p id="certificate_file-error" className="text-sm font-medium text-destructive">
                {errors.certificate_file.message ?? MESSAGES.fileRequired}
              </p>
            )}

            {stage === 'error' ? (
              // A refused upload is over: no progress bar left standing at the stage it reached.
              <div role="alert" className="flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-200" data-testid="upload-failed">
                <XCircle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                <div className="min-w-0">
                  <p className="font-semibold" data-testid="upload-stage" data-stage={stage}>
                    {STAGE_TEXT[stage]}
                  </p>
                  {failure && <p className="break-words">{failure}</p>}
                  {existingId && (
                    <p className="mt-1">
                      <Link to={`/certificates/${existingId}`} className="font-medium underline underline-offset-2 hover:no-underline" data-testid="existing-certificate">
                        Open your certificate of this file
                      </Link>
                    </p>
                  )}
                </div>
              </div>
            ) : (
              stage !== 'idle' && (
                <div className="space-y-2" aria-live="polite">
                  <div className="flex items-center justify-between text-sm">
                    <span className="flex items-center gap-2">
                      {stage === 'success' ? (
                        <CheckCircle2 className="size-4 text-emerald-600" aria-hidden="true" />
                      ) : (
                        <Loader2 className="size-4 animate-spin" aria-hidden="true" />
                      )}
                      <span data-testid="upload-stage" data-stage={stage}>
                        {STAGE_TEXT[stage]}
                      </span>
                    </span>
                    <span className="tabular-nums text-muted-foreground">{progress}%</span>
                  </div>
                  <div
                    role="progressbar"
                    aria-label="Upload progress"
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={progress}
                    className="h-2 overflow-hidden rounded-full bg-muted"
                  >
                    <div className="h-full bg-primary transition-all duration-200" style={{ width: `${progress}%` }} />
                  </div>
                </div>
              )
            )}
          </CardContent>
        </Card>

        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button asChild variant="outline" disabled={busy}>
            <Link to="/certificates">Cancel</Link>
          </Button>
          <Button type="submit" disabled={busy || nameMissing} aria-describedby={nameMissing ? 'profile-name-needed' : undefined}>
            {busy ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <Upload className="size-4" aria-hidden="true" />}
            {busy ? 'Creating...' : 'Create Certificate'}
          </Button>
        </div>
      </form>
    </div>
  );
}
