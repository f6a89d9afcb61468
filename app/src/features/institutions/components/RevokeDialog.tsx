// Revoking a certificate the institution issued or confirmed: a reason, an optional off-chain note,
// then its wallet signs the revocation.
import { useState } from 'react';
import type { CertificateDto } from '../../../../../shared/schemas/dto';
import { DestructiveDialogFooter } from '../../../components/ui/destructive-dialog-footer';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../lib/toast';
import { trpcClient } from '../../../lib/trpc';
import { useWalletSession } from '../../wallet/WalletSession';
import { errorMessage, signPrepared, useRefreshInstitution } from '../api';
import { NATIVE_SELECT_CLASS } from '../../../components/ui/native-select';

const REVOKE_REASONS = [
  { value: 'revoked_by_issuer', label: 'Revoked by the institution' },
  { value: 'revoked_superseded', label: 'Superseded by a newer certificate' },
  { value: 'revoked_holder_request', label: 'At the holder’s request' },
] as const;

export function RevokeDialog({ certificate, onClose }: { certificate: CertificateDto | null; onClose: () => void }) {
  const wallet = useWalletSession();
  const refresh = useRefreshInstitution();
  const [reason, setReason] = useState<(typeof REVOKE_REASONS)[number]['value']>('revoked_by_issuer');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function revoke() {
    if (!certificate) return;
    if (note.length > 1000) return setFailure('The note is at most 1000 characters');
    setBusy(true);
    setFailure(null);
    try {
      const prepared = await trpcClient.issuer.revoke.mutate({ id: certificate.id, reason, note: note.trim() || undefined });
      await signPrepared(wallet, prepared, (signedTransaction) => trpcClient.issuer.submit.mutate({ signedTransaction }));
      toast.success('Certificate Revoked', { description: 'Every verify surface now shows it revoked, by you, and why.' });
      setNote('');
      onClose();
    } catch (e) {
      setFailure(errorMessage(e));
    } finally {
      setBusy(false);
      await refresh();
    }
  }

  return (
    <Dialog open={!!certificate} onOpenChange={(open) => !open && !busy && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Revoke “{certificate?.title}”</DialogTitle>
          <DialogDescription>The record stays on chain, marked revoked: verifiers see when, by whom and why. This cannot be undone.</DialogDescription>
        </DialogHeader>
        <div className="space-y-3">
          <div className="space-y-2">
            <Label htmlFor="revoke-reason">Reason</Label>
            <select id="revoke-reason" className={`${NATIVE_SELECT_CLASS} w-full`} value={reason} onChange={(e) => setReason(e.target.value as typeof reason)} disabled={busy}>
              {REVOKE_REASONS.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          </div>
          <div className="space-y-2">
            <Label htmlFor="revoke-note">Note (optional, kept off chain)</Label>
            <Textarea id="revoke-note" value={note} maxLength={1000} onChange={(e) => setNote(e.target.value)} disabled={busy} />
          </div>
          {failure && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {failure}
            </p>
          )}
        </div>
        <DestructiveDialogFooter busy={busy} onCancel={onClose} onConfirm={() => void revoke()}>
          Revoke certificate
        </DestructiveDialogFooter>
      </DialogContent>
    </Dialog>
  );
}
