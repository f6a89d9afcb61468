// Correct what was claimed about a certificate (a mistyped title, institution or program): the same
// file is verified again against the new details (certificate.updateClaims). Loaded on first use.
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { certificateDetails, type CertificateDetails } from '../../../../../shared/schemas/certificate';
import type { CertificateDto } from '../../../../../shared/schemas/dto';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { trpc } from '../../../lib/trpc';
import { todayIso } from '../lib/format';

const FIELDS = [
  { name: 'title', label: 'Certificate Title' },
  { name: 'institution_name', label: 'Institution Name' },
  { name: 'program_name', label: 'Program Name' },
] as const;

export default function EditClaimsDialog({
  certificate: c,
  open,
  onOpenChange,
  onUpdated,
}: {
  certificate: CertificateDto;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The run that verifies the corrected details. */
  onUpdated: (jobId: string) => void;
}) {
  const form = useForm<CertificateDetails>({
    resolver: zodResolver(certificateDetails) as never,
    reValidateMode: 'onSubmit',
    defaultValues: { title: c.title, institution_name: c.institution_name, program_name: c.program_name, issue_date: c.issue_date },
  });
  const { register, handleSubmit, formState, clearErrors } = form;
  const errors = formState.errors;
  const update = useMutation(trpc.certificate.updateClaims.mutationOptions());

  async function onSubmit(values: CertificateDetails) {
    try {
      const r = await update.mutateAsync({ id: c.id, ...values });
      onUpdated(r.job_id);
      onOpenChange(false);
    } catch {
      // Shown below the fields (update.error).
    }
  }

  const field = (name: keyof CertificateDetails) => register(name, { onChange: () => clearErrors(name) });

  return (
    <Dialog open={open} onOpenChange={(o) => !update.isPending && onOpenChange(o)}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Edit Certificate Details</DialogTitle>
          <DialogDescription>
            Enter them exactly as they appear on the certificate. The same file is verified again against the corrected details.
          </DialogDescription>
        </DialogHeader>
        <form id="edit-claims" onSubmit={handleSubmit(onSubmit)} noValidate className="grid gap-4">
          {FIELDS.map(({ name, label }) => (
            <div key={name} className="space-y-2">
              <Label htmlFor={`edit-${name}`}>{label}</Label>
              <Input
                id={`edit-${name}`}
                aria-invalid={!!errors[name] || undefined}
                aria-describedby={errors[name] ? `edit-${name}-error` : undefined}
                disabled={update.isPending}
                {...field(name)}
              />
              {errors[name] && (
                <p id={`edit-${name}-error`} className="text-sm font-medium text-destructive">
                  {errors[name]?.message}
                </p>
              )}
            </div>
          ))}
          <div className="space-y-2">
            <Label htmlFor="edit-issue_date">Issue Date</Label>
            <Input
              id="edit-issue_date"
              type="date"
              max={todayIso()}
              aria-invalid={!!errors.issue_date || undefined}
              aria-describedby={errors.issue_date ? 'edit-issue_date-error' : undefined}
              disabled={update.isPending}
              {...field('issue_date')}
            />
            {errors.issue_date && (
              <p id="edit-issue_date-error" className="text-sm font-medium text-destructive">
                {errors.issue_date.message}
              </p>
            )}
          </div>
          {update.error && (
            <p role="alert" className="text-sm text-destructive">
              {update.error.message}
            </p>
          )}
        </form>
        <DialogFooter>
          <Button type="button" variant="outline" disabled={update.isPending} onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" form="edit-claims" disabled={update.isPending}>
            {update.isPending && <Loader2 className="size-4 animate-spin" aria-hidden="true" />}
            {update.isPending ? 'Saving...' : 'Save and Verify Again'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
