// /profile: name, optional e-mail, the connected wallet (read-only) and a photo shown on shared links.
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../lib/toast';
import { Camera, Loader2, Wallet } from 'lucide-react';
import type { UpdateProfileInput } from '../../../../shared/schemas/profile';
import { PHOTO_MAX_BYTES } from '../../../../shared/constants';
import type { UserDto } from '../../../../shared/schemas/dto';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { trpc } from '../../lib/trpc';
import { useAuth } from '../auth/AuthProvider';
import { PageHeader } from '../certificates/components/PageHeader';
import { postTrpcForm } from '../certificates/lib/upload';
import { UserAvatar } from './UserAvatar';
import { ApiKeysCard } from '../api-keys/ApiKeysCard';
import { lazyResolver } from '../../lib/lazy-resolver';

interface FormValues {
  full_name: string;
  email: string;
}

const validation = lazyResolver<FormValues>(() => import('./profile-form').then((m) => m.profileResolver));

export default function ProfilePage() {
  const { updateUserProfile } = useAuth();
  const queryClient = useQueryClient();
  const profile = useQuery(trpc.profile.get.queryOptions());
  const user = profile.data as UserDto | undefined;
  const update = useMutation(trpc.profile.update.mutationOptions());
  const photoInput = useRef<HTMLInputElement>(null);
  const [photoBusy, setPhotoBusy] = useState(false);
  const [photoError, setPhotoError] = useState<string | null>(null);

  const form = useForm<FormValues>({
    resolver: validation.resolver,
    reValidateMode: 'onSubmit',
    defaultValues: { full_name: '', email: '' },
  });
  const { register, handleSubmit, reset, formState, clearErrors } = form;
  const errors = formState.errors;

  useEffect(validation.preload, []);

  useEffect(() => {
    if (user) reset({ full_name: user.full_name ?? '', email: user.email ?? '' });
  }, [user, reset]);

  const loadErrorShown = useRef(false);
  useEffect(() => {
    if (profile.isError && !loadErrorShown.current) {
      loadErrorShown.current = true;
      toast.error('Error', { description: 'Failed to load your profile information.' });
    }
  }, [profile.isError]);

  function applyUser(next: UserDto) {
    queryClient.setQueryData(trpc.profile.get.queryKey(), next as never);
    updateUserProfile(next);
  }

  async function onSubmit(values: FormValues) {
    try {
      const next = (await update.mutateAsync({ full_name: values.full_name, email: values.email } as UpdateProfileInput)) as UserDto;
      applyUser(next);
      reset({ full_name: next.full_name, email: next.email ?? '' });
      toast.success('Profile Updated', { description: 'Your profile has been successfully updated.' });
    } catch (error) {
      console.error('Profile update failed', error);
      toast.error('Update Failed', { description: 'Failed to update your profile' });
    }
  }

  async function onPhoto(file: File) {
    setPhotoError(null);
    if (!file.type.startsWith('image/')) {
      setPhotoError('Please choose an image file.');
      return;
    }
    if (file.size > PHOTO_MAX_BYTES) {
      setPhotoError('The photo must be at most 2MB.');
      return;
    }
    setPhotoBusy(true);
    try {
      const body = new FormData();
      body.set('photo', file, file.name);
      applyUser(await postTrpcForm<UserDto>('profile.uploadPhoto', body));
      toast.success('Profile Updated', { description: 'Your profile has been successfully updated.' });
    } catch (error) {
      console.error('Photo upload failed', error);
      setPhotoError(error instanceof Error ? error.message : String(error));
      toast.error('Update Failed', { description: 'Failed to update your profile' });
    } finally {
      setPhotoBusy(false);
    }
  }

  const loading = profile.isPending;
  const saving = update.isPending || formState.isSubmitting;

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <PageHeader title="Your Profile" description="Manage your personal information and wallet" />
      {loading ? (
        <div role="status" className="flex min-h-64 items-center justify-center gap-2 text-muted-foreground">
          <Loader2 className="size-6 animate-spin" aria-hidden="true" />
          <span className="sr-only">Loading profile...</span>
        </div>
      ) : (
        <div className="grid gap-6 md:grid-cols-3">
          <Card className="md:col-span-2">
            <form onSubmit={handleSubmit(onSubmit)} noValidate className="flex flex-col gap-6">
              <CardHeader>
                <CardTitle>
                  <h2>Profile Information</h2>
                </CardTitle>
                <CardDescription>Your name appears on your public certificate links.</CardDescription>
              </CardHeader>
              <CardContent className="space-y-4">
                <div className="space-y-2">
                  <Label htmlFor="full_name">Full Name</Label>
                  <Input
                    id="full_name"
                    autoComplete="name"
                    placeholder="Your full name"
                    aria-invalid={!!errors.full_name || undefined}
                    aria-describedby={errors.full_name ? 'full_name-error full_name-hint' : 'full_name-hint'}
                    {...register('full_name', { onChange: () => clearErrors('full_name') })}
                  />
                  <p id="full_name-hint" className="text-sm text-muted-foreground">
                    Write it as your certificates do: verification looks for it in each certificate you add.
                  </p>
                  {errors.full_name && (
                    <p id="full_name-error" className="text-sm font-medium text-destructive">
                      {errors.full_name.message}
                    </p>
                  )}
                </div>
                <div className="space-y-2">
                  <Label htmlFor="email">
                    Email <span className="font-normal text-muted-foreground">(optional)</span>
                  </Label>
                  <Input
                    id="email"
                    type="email"
                    autoComplete="email"
                    placeholder="you@example.com"
                    aria-invalid={!!errors.email || undefined}
                    aria-describedby={errors.email ? 'email-error' : undefined}
                    {...register('email', { onChange: () => clearErrors('email') })}
                  />
                  {errors.email && (
                    <p id="email-error" className="text-sm font-medium text-destructive">
                      {errors.email.message}
                    </p>
                  )}
                </div>
                <div className="space-y-2">
                  <Label htmlFor="wallet_address">Connected Wallet Address</Label>
                  <div className="relative">
                    <Wallet className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
                    <Input id="wallet_address" readOnly value={user?.wallet_address ?? ''} className="bg-muted pl-9 font-mono text-xs" />
                  </div>
                  <p className="text-xs text-muted-foreground">This is the wallet you signed in with; it cannot be changed here.</p>
                </div>
              </CardContent>
              <CardFooter className="justify-end">
                <Button type="submit" disabled={saving || loading}>
                  {saving && <Loader2 className="size-4 animate-spin" aria-hidden="true" />}
                  {saving ? 'Saving...' : 'Save Changes'}
                </Button>
              </CardFooter>
            </form>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Profile Photo</h2>
              </CardTitle>
              <CardDescription>Your photo will be visible to others when you share your certificates.</CardDescription>
            </CardHeader>
            <CardContent className="flex flex-col items-center gap-3">
              <div className="group relative">
                {user && <UserAvatar user={user} className="size-28 text-3xl" />}
                <button
                  type="button"
                  className="absolute inset-0 flex items-center justify-center rounded-full bg-black/50 text-white opacity-0 transition-opacity hover:opacity-100 focus-visible:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
                  onClick={() => photoInput.current?.click()}
                  disabled={photoBusy}
                >
                  {photoBusy ? <Loader2 className="size-6 animate-spin" aria-hidden="true" /> : <Camera className="size-6" aria-hidden="true" />}
                  <span className="sr-only">Upload profile photo</span>
                </button>
              </div>
              <input
                ref={photoInput}
                type="file"
                accept="image/*"
                className="sr-only"
                tabIndex={-1}
                aria-hidden="true"
                data-testid="photo-input"
                onChange={(e) => {
                  const f = e.target.files?.[0];
                  e.target.value = '';
                  if (f) void onPhoto(f);
                }}
              />
              <p className="text-sm font-medium">{photoBusy ? 'Uploading...' : 'Click to upload'}</p>
              <p className="text-xs text-muted-foreground">JPG, PNG or GIF, max 2MB</p>
              {photoError && (
                <p role="alert" className="text-center text-sm text-destructive">
                  {photoError}
                </p>
              )}
            </CardContent>
          </Card>
          <div className="md:col-span-3">
            <ApiKeysCard />
          </div>
        </div>
      )}
    </div>
  );
}
