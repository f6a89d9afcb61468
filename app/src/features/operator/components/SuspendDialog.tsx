// Suspending an institution, confirmed first (as revoking a certificate is, institutions/RevokeDialog):
// what it does to every certificate the institution issued or confirmed, then the server's operator
// key signs set_issuer_status.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Ban } from 'lucide-react';
import { DestructiveDialogFooter } from '../../../components/ui/destructive-dialog-footer';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { toast } from '../../../lib/toast';
import { trpc, trpcClient } from '../../../lib/trpc';
import { errorMessage } from '../lib';

export interface SuspendTarget {
  authority: string;
  name: string;
  domain: string;
}

export function SuspendDialog({ issuer, onClose }: { issuer: SuspendTarget | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function suspend() {
    if (!issuer) return;
    setBusy(true);
    setFailure(null);
    try {
      await trpcClient.operator.setStatus.mutate({ authority: issuer.authority, status: 'suspended' });
      toast.success('Institution Suspended', { description: `${issuer.name} (${issuer.domain}) is suspended: every certificate it issued or confirmed is now not valid.` });
      onClose();
    } catch (e) {
      setFailure(errorMessage(e));
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries(trpc.operator.pathFilter());
    }
  }

  return (
    <Dialog
      open={!!issuer}
      onOpenChange={(open) => {
        if (open || busy) return;
        setFailure(null);
        onClose();
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Suspend {issuer?.name}?</DialogTitle>
          <DialogDescription>
            {issuer?.domain} · <span className="break-all font-mono text-xs">{issuer?.authority}</span>
          </DialogDescription>
        </DialogHeader>
        <ul className="list-disc space-y-1.5 pl-5 text-sm" data-testid="suspend-consequences">
          <li>
            <span className="font-medium">Every certificate it issued or confirmed becomes not valid:</span> holders, their public links and every verifier read
            it as not valid because its institution is suspended.
          </li>
          <li>It can no longer issue certificates or confirm holders’ requests.</li>
          <li>The records stay on chain: approving it again (which needs its domain proven) makes them valid again.</li>
        </ul>
        {failure && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {failure}
          </p>
        )}
        <DestructiveDialogFooter
          busy={busy}
          onCancel={() => {
            setFailure(null);
            onClose();
          }}
          onConfirm={() => void suspend()}
          icon={Ban}
        >
          Suspend institution
        </DestructiveDialogFooter>
      </DialogContent>
    </Dialog>
  );
}
