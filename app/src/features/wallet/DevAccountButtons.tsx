// The connect dialog's named accounts of a local installation (Holder, Institution, Operator): a newcomer
// who ran `npm start` tries each role with one click. Shown only when the server offers the development
// wallet; the server itself decides whether this browser may have the keys (its own machine only) and
// says why not otherwise.
import { useQuery } from '@tanstack/react-query';
import { Building2, Info, Loader2, ShieldCheck, UserRound } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { shortAddress } from '../auth/AuthProvider';
import { useClusterInfo } from './cluster';
import { fetchDevAccounts, type DevAccountId } from './dev-accounts';

const ICONS: Record<DevAccountId, typeof UserRound> = { holder: UserRound, institution: Building2, operator: ShieldCheck };

export function DevAccountButtons({ disabled, pending, onChoose }: { disabled: boolean; pending: DevAccountId | null; onChoose: (id: DevAccountId) => void }) {
  const isLocal = !!useClusterInfo().data?.isLocal;
  const answer = useQuery({
    queryKey: ['attesta', 'dev-accounts'],
    queryFn: ({ signal }) => fetchDevAccounts(signal),
    enabled: isLocal,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  const a = answer.data;
  if (!isLocal || !a || (!a.ok && a.status === 404)) return null;
  if (!a.ok) {
    return (
      <p className="flex gap-2 rounded-md border border-dashed p-3 text-xs text-muted-foreground" data-testid="dev-accounts-unavailable">
        <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>
          <span className="font-medium text-foreground">Named local accounts are not offered here.</span> {a.reason}
        </span>
      </p>
    );
  }
  if (!a.accounts.length) return null;
  return (
    <section aria-labelledby="dev-accounts-heading" className="space-y-2">
      <h3 id="dev-accounts-heading" className="text-sm font-medium">
        Try a role on this local installation
      </h3>
      <p className="text-xs text-muted-foreground">Accounts made for this installation only; their keys never leave this machine.</p>
      <ul className="grid gap-2" aria-label="Local accounts">
        {a.accounts.map((acc) => {
          const Icon = ICONS[acc.id] ?? UserRound;
          return (
            <li key={acc.id}>
              <Button
                type="button"
                variant="outline"
                className="h-auto w-full justify-start gap-3 py-2.5 text-left whitespace-normal"
                disabled={disabled}
                onClick={() => onChoose(acc.id)}
                data-testid={`dev-account-${acc.id}`}
              >
                <Icon className="size-5 shrink-0 text-primary" aria-hidden="true" />
                <span className="flex min-w-0 flex-col items-start">
                  <span className="font-medium">{acc.label}</span>
                  <span className="text-xs font-normal text-muted-foreground">
                    {acc.description} · <span className="font-mono">{shortAddress(acc.address)}</span>
                  </span>
                </span>
                {pending === acc.id && <Loader2 className="ml-auto size-4 shrink-0 animate-spin" aria-hidden="true" />}
              </Button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
