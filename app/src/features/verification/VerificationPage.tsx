// /verification is public (PRODUCT.md). Visitors get a light public shell; signed-in holders get
// their sidebar, loaded on demand so verifiers never download wallet code.
import { lazy, Suspense } from 'react';
import { useAuth } from '../auth/AuthProvider';
import { FullPageLoading } from '../auth/FullPageLoading';
import { PublicShell } from '../public-view/PublicShell';
import { VerificationPanel } from './VerificationPanel';

const SignedInShell = lazy(() => import('../../layouts/SignedInLayout').then((m) => ({ default: m.SignedInShell })));

export default function VerificationPage() {
  const { isLoading, isAuthenticated } = useAuth();
  if (isLoading) return <FullPageLoading />;
  if (isAuthenticated) {
    return (
      <Suspense fallback={<FullPageLoading />}>
        <SignedInShell>
          <VerificationPanel />
        </SignedInShell>
      </Suspense>
    );
  }
  return (
    <PublicShell>
      <VerificationPanel />
    </PublicShell>
  );
}
