// Profile page: the user's REST API keys. A new key is shown once (the server keeps only its hash),
// with a copy button; the list shows name, prefix, created and last used; revoke asks first.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../lib/toast';
import { Check, Copy, KeyRound, Loader2, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import type { ApiKeyDto } from '../../../../shared/schemas/rest';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { DestructiveDialogFooter } from '../../components/ui/destructive-dialog-footer';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { copyToClipboard } from '../../lib/clipboard';
import { trpc } from '../../lib/trpc';
import { formatDateTime } from '../../lib/dates';

const formatDate = (iso: string | null) => (iso ? formatDateTime(iso) : 'Never');

const errorMessage = (e: unknown) => (e instanceof Error && e.message ? e.message : 'Something went wrong. Please try again.');

export function ApiKeysCard() {
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.apiKeys.list.queryOptions());
  const create = useMutation(trpc.apiKeys.create.mutationOptions());
  const revoke = useMutation(trpc.apiKeys.revoke.mutationOptions());
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [newKey, setNewKey] = useState<{ key: string; name: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const [toRevoke, setToRevoke] = useState<ApiKeyDto | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });

  async function onCreate(e: FormEvent) {
    e.preventDefault();
    // The schema (zod) loads with the first submit, not with the profile page.
    const { apiKeyCreateInput } = await import('../../../../shared/schemas/rest');
    const parsed = apiKeyCreateInput.safeParse({ name });
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message ?? 'Invalid name');
      return;
    }
    try {
      const r = await create.mutateAsync(parsed.data);
      setNewKey({ key: r.key, name: r.api_key.name });
      setCopied(false);
      setName('');
      await refresh();
    } catch (err) {
      setNameError(errorMessage(err));
    }
  }

  async function onCopy() {
    if (!newKey) return;
    try {
      await copyToClipboard(newKey.key);
      setCopied(true);
      toast.success('Copied to clipboard', { duration: 2000 });
    } catch {
      toast.error('Copy Failed', { description: 'Select the key and copy it by hand.' });
    }
  }

  async function onRevoke() {
    if (!toRevoke) return;
    try {
      await revoke.mutateAsync({ id: toRevoke.id });
      toast.success('API key revoked', { description: `“${toRevoke.name}” no longer works.` });
      setToRevoke(null);
      await refresh();
    } catch (err) {
      toast.error('Revoke failed', { description: errorMessage(err) });
    }
  }

  const list = (keys.data ?? []) as ApiKeyDto[];

  return (
    <Card data-testid="api-keys-card">
      <CardHeader>
        <CardTitle>
          <h2 className="flex items-center gap-2">
            <KeyRound className="size-5" aria-hidden="true" /> API Keys
          </h2>
        </CardTitle>
        <CardDescription>
          Use the <Link to="/api" className="underline underline-offset-4">REST API</Link> from your own systems: send a key as{' '}
          <code className="font-mono text-xs">Authorization: Bearer &lt;key&gt;</code>. A key acts as you; keep it secret.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <form onSubmit={onCreate} noValidate className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="flex-1 space-y-2">
            <Label htmlFor="api-key-name">Key name</Label>
            <Input
              id="api-key-name"
              placeholder="e.g. HR system"
              maxLength={60}
              value={name}
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? 'api-key-name-error' : undefined}
              onChange={(e) => {
                setName(e.target.value);
                setNameError(null);
              }}
            />
          </div>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <KeyRound aria-hidden="true" />}
            {create.isPending ? 'Creating...' : 'Create API Key'}
          </Button>
        </form>
        {nameError && (
          <p id="api-key-name-error" role="alert" className="-mt-4 text-sm text-destructive">
            {nameError}
          </p>
        )}

        {keys.isPending ? (
          <div role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
            <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Loading API keys...
          </div>
        ) : keys.isError ? (
          <p role="alert" className="text-sm text-destructive">
            Failed to load your API keys.
          </p>
        ) : list.length === 0 ? (
          <p className="text-sm text-muted-foreground">No API keys yet.</p>
        ) : (
          <ul className="divide-y rounded-md border" aria-label="API keys">
            {list.map((k) => (
              <li key={k.id} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between" data-testid="api-key-row">
                <div className="min-w-0 space-y-1">
                  <p className="truncate font-medium">{k.name}</p>
                  <p className="font-mono text-xs text-muted-foreground">{k.prefix}_••••••••</p>
                  <p className="text-xs text-muted-foreground">
                    Created {formatDate(k.created_at)} · Last used {formatDate(k.last_used_at)}
                  </p>
                </div>
                <Button variant="outline" size="sm" onClick={() => setToRevoke(k)} aria-label={`Revoke ${k.name}`}>
                  <Trash2 aria-hidden="true" /> Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>

      {/* Shown once: after closing, only the prefix is ever visible again. */}
      <Dialog open={newKey !== null} onOpenChange={(open) => !open && setNewKey(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Your new API key</DialogTitle>
            <DialogDescription>
              Copy “{newKey?.name}” now. For your security it will not be shown again; if you lose it, revoke it and create a new one.
            </DialogDescription>
          </DialogHeader>
          <div className="flex items-center gap-2">
            <Input readOnly value={newKey?.key ?? ''} aria-label="New API key" className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
            <Button type="button" variant="outline" size="icon" onClick={onCopy} aria-label="Copy API key">
              {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
            </Button>
          </div>
          <DialogFooter>
            <Button type="button" onClick={() => setNewKey(null)}>
              Done
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>

      <Dialog open={toRevoke !== null} onOpenChange={(open) => !open && !revoke.isPending && setToRevoke(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Revoke API key?</DialogTitle>
            <DialogDescription>
              “{toRevoke?.name}” ({toRevoke?.prefix}_…) will stop working immediately. Systems using it will get 401 errors. This cannot be undone.
            </DialogDescription>
          </DialogHeader>
          <DestructiveDialogFooter busy={revoke.isPending} onCancel={() => setToRevoke(null)} onConfirm={onRevoke}>
            {revoke.isPending ? 'Revoking...' : 'Revoke'}
          </DestructiveDialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  );
}

export default ApiKeysCard;
