// Revoking any certificate for fraud (revoked_fraud, a note required), signed by the platform's
// registry key. The certificate is named by its ID or by its public link, as /verification takes it.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Loader2, ShieldAlert } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../lib/toast';
import { trpc, trpcClient } from '../../../lib/trpc';
import { certificateIdFrom } from '../../certificates/lib/format';
import { errorMessage } from '../lib';

export function FraudRevokeCard() {
  const queryClient = useQueryClient();
  const [id, setId] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<{ id?: string; note?: string }>({});
  const [busy, setBusy] = useState(false);

  async function revoke(e: React.FormEvent) {
    e.preventDefault();
    const certificateId = certificateIdFrom(id.trim());
    const next: typeof errors = {};
    if (!certificateId) next.id = 'A certificate ID or public link is required';
    if (!note.trim()) next.note = 'A note is required: say what the fraud is';
    else if (note.trim().length > 1000) next.note = 'The note is at most 1000 characters';
    setErrors(next);
    if (next.id || next.note) return;
    setBusy(true);
    try {
      await trpcClient.operator.revoke.mutate({ id: certificateId, note: note.trim() });
      toast.success('Certificate Revoked', { description: `${certificateId} is revoked for fraud; every verify surface shows it.` });
      setId('');
      setNote('');
    } catch (err) {
      toast.error('Revocation Failed', { description: errorMessage(err) });
      setErrors({ id: certificateId === id.trim() ? errorMessage(err) : `${errorMessage(err)} (ID ${certificateId}, from the link)` });
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries(trpc.operator.audit.pathFilter());
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Revoke for fraud</h2>
        </CardTitle>
        <CardDescription>Any certificate, signed by the platform’s registry key. The record stays, marked revoked for fraud, with your note.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={(e) => void revoke(e)} noValidate className="space-y-3">
          <div className="space-y-2">
            <Label htmlFor="fraud-id">Certificate ID</Label>
            <Input id="fraud-id" value={id} onChange={(e) => (setId(e.target.value), setErrors((x) => ({ ...x, id: undefined })))} aria-invalid={!!errors.id || undefined} aria-describedby={errors.id ? 'fraud-id-error fraud-id-hint' : 'fraud-id-hint'} disabled={busy} />
            <p id="fraud-id-hint" className="text-sm text-muted-foreground">
              Its ID, or its public link (…/view/…/<em>ID</em>) pasted whole.
            </p>
            {errors.id && (
              <p id="fraud-id-error" className="text-sm font-medium text-destructive">
                {errors.id}
              </p>
            )}
          </div>
          <div className="space-y-2">
            <Label htmlFor="fraud-note">Note (required)</Label>
            <Textarea id="fraud-note" value={note} maxLength={1000} onChange={(e) => (setNote(e.target.value), setErrors((x) => ({ ...x, note: undefined })))} aria-invalid={!!errors.note || undefined} aria-describedby={errors.note ? 'fraud-note-error' : undefined} disabled={busy} />
            {errors.note && (
              <p id="fraud-note-error" className="text-sm font-medium text-destructive">
                {errors.note}
              </p>
            )}
          </div>
          <Button type="submit" variant="destructive" disabled={busy}>
            {busy ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <ShieldAlert className="size-4" aria-hidden="true" />} Revoke for fraud
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
