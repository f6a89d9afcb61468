// A wallet that is no institution yet registers one (name, domain): its wallet signs register_issuer.
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Building2, Loader2 } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { lazyResolver } from '../../../lib/lazy-resolver';
import { toast } from '../../../lib/toast';
import { trpcClient } from '../../../lib/trpc';
import { useWalletSession } from '../../wallet/WalletSession';
import { errorMessage, signPrepared, useRefreshInstitution } from '../api';
import type { RegisterFormValues } from '../lib/forms';
import { FieldError } from './FieldError';

const registerValidation = lazyResolver<RegisterFormValues>(() => import('../lib/forms').then((m) => m.registerResolver));

export function RegisterCard() {
  const wallet = useWalletSession();
  const refresh = useRefreshInstitution();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState, clearErrors } = useForm<RegisterFormValues>({ resolver: registerValidation.resolver, reValidateMode: 'onSubmit', defaultValues: { name: '', domain: '' } });
  const errors = formState.errors;
  useEffect(registerValidation.preload, []);

  async function onSubmit(values: RegisterFormValues) {
    setBusy(true);
    setFailure(null);
    try {
      const prepared = await trpcClient.issuer.register.mutate({ name: values.name.trim(), domain: values.domain.trim() });
      await signPrepared(wallet, prepared, (signedTransaction) => trpcClient.issuer.submit.mutate({ signedTransaction }));
      toast.success('Institution Registered', { description: 'Prove your domain next; the operator approves it then.' });
      await refresh();
    } catch (e) {
      setFailure(errorMessage(e));
      toast.error('Registration Failed', { description: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card className="max-w-2xl">
      <CardHeader>
        <CardTitle>
          <h2>Register your institution</h2>
        </CardTitle>
        <CardDescription>Your wallet becomes the institution’s key: it signs the registration, the certificates it issues and its confirmations. Attesta pays the network fees.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={handleSubmit(onSubmit)} noValidate className="space-y-4">
          <div className="space-y-2">
            <Label htmlFor="inst-name">Institution name</Label>
            <Input id="inst-name" placeholder="e.g. Northfield University" disabled={busy} aria-invalid={!!errors.name || undefined} aria-describedby={errors.name ? 'inst-name-error' : undefined} {...register('name', { onChange: () => clearErrors('name') })} />
            <FieldError id="inst-name-error" message={errors.name?.message} />
          </div>
          <div className="space-y-2">
            <Label htmlFor="inst-domain">Domain</Label>
            <Input id="inst-domain" placeholder="e.g. northfield.edu" disabled={busy} aria-invalid={!!errors.domain || undefined} aria-describedby={errors.domain ? 'inst-domain-error' : 'inst-domain-hint'} {...register('domain', { onChange: () => clearErrors('domain') })} />
            <p id="inst-domain-hint" className="text-sm text-muted-foreground">
              The web domain you control: you prove it with a DNS record or a file on its website.
            </p>
            <FieldError id="inst-domain-error" message={errors.domain?.message} />
          </div>
          {failure && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {failure}
            </p>
          )}
          <Button type="submit" disabled={busy}>
            {busy ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <Building2 className="size-4" aria-hidden="true" />}
            {busy ? 'Registering...' : 'Register institution'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
