// Revoking any certificate for fraud (revoked_fraud, a note required), signed by the platform's
// registry key. The certificate is named by its ID or by its public link, as /verification takes it;
// what it names is shown and confirmed first (a revocation cannot be undone, and a mistyped ID names
// someone else's certificate).
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Loader2, ShieldAlert } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { DestructiveDialogFooter } from '../../../components/ui/destructive-dialog-footer';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../lib/toast';
import { trpc, trpcClient } from '../../../lib/trpc';
import { certificateIdFrom, shortHash } from '../../certificates/lib/format';
import { errorMessage } from '../lib';

type Target = Awaited<ReturnType<typeof trpcClient.operator.revokePreview.query>>;

export function FraudRevokeCard() {
  const queryClient = useQueryClient();
  const [id, setId] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<{ id?: string; note?: string }>({});
  const [busy, setBusy] = useState(false);
  const [target, setTarget] = useState<Target | null>(null);

  /** The field's error for a refusal of `certificateId` (saying which ID a pasted link named). */
  const idError = (certificateId: string, err: unknown) => (certificateId === id.trim() ? errorMessage(err) : `${errorMessage(err)} (ID ${certificateId}, from the link)`);

  // First step: check the form, then show what the ID names (or why it cannot be revoked).
  async function review(e: React.FormEvent) {
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
      setTarget(await trpcClient.operator.revokePreview.query({ id: certificateId }));
    } catch (err) {
      setErrors({ id: idError(certificateId, err) });
    } finally {
      setBusy(false);
    }
  }

  async function revoke() {
    if (!target) return;
    setBusy(true);
    try {
      await trpcClient.operator.revoke.mutate({ id: target.id, note: note.trim() });
      toast.success('Certificate Revoked', { description: `${target.id} is revoked for fraud; every verify surface shows it.` });
      setId('');
      setNote('');
      setTarget(null);
    } catch (err) {
      toast.error('Revocation Failed', { description: errorMessage(err) });
      setErrors({ id: idError(target.id, err) });
      setTarget(null);
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
        <form onSubmit={(e) => void review(e)} noValidate className="space-y-3">
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
        <Dialog
          open={!!target}
          onOpenChange={(open) => {
            if (!open && !busy) setTarget(null);
          }}
        >
          <DialogContent data-testid="fraud-confirm">
            <DialogHeader>
              <DialogTitle>Revoke “{target?.title}” for fraud?</DialogTitle>
              <DialogDescription>
                {target?.id} · {target?.institution_name} · {target?.program_name}
              </DialogDescription>
            </DialogHeader>
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="text-muted-foreground">Holder</dt>
              <dd className="font-mono text-xs leading-5" title={target?.holder_wallet}>
                {target ? shortHash(target.holder_wallet, 6, 6) : ''}
              </dd>
              <dt className="text-muted-foreground">Status now</dt>
              <dd className="capitalize" data-testid="fraud-confirm-status">
                {target?.verification_status}
                {target?.minted ? ', minted as an NFT' : ''}
              </dd>
            </dl>
            <ul className="list-disc space-y-1.5 pl-5 text-sm">
              <li>
                <span className="font-medium">It cannot be undone:</span> the record on chain is marked revoked for fraud, signed by the platform’s registry key.
              </li>
              <li>The holder, the public link and every verifier read it as revoked for fraud, with your note.</li>
            </ul>
            <DestructiveDialogFooter busy={busy} onCancel={() => setTarget(null)} onConfirm={() => void revoke()} icon={ShieldAlert}>
              Revoke permanently
            </DestructiveDialogFooter>
          </DialogContent>
        </Dialog>
      </CardContent>
    </Card>
  );
}
