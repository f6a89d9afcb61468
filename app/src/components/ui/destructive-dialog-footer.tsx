// The footer of a dialog that confirms something that cannot be undone (revoke, suspend): Cancel, and
// the destructive action, both disabled while it runs, with a spinner in place of its icon.
import type { ReactNode } from 'react';
import { Loader2, type LucideIcon } from 'lucide-react';
import { Button } from './button';
import { DialogFooter } from './dialog';

export function DestructiveDialogFooter({ busy, onCancel, onConfirm, icon: Icon, children }: { busy: boolean; onCancel: () => void; onConfirm: () => void; icon?: LucideIcon; children: ReactNode }) {
  return (
    <DialogFooter>
      <Button type="button" variant="outline" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button type="button" variant="destructive" onClick={onConfirm} disabled={busy}>
        {busy ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : Icon && <Icon className="size-4" aria-hidden="true" />}
        {children}
      </Button>
    </DialogFooter>
  );
}
