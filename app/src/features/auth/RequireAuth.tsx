// Guard for the signed-in routes (SEED-SPEC.md §2): 'Loading...' while the session is read, then
// /login (replacing history) for visitors.
import { useEffect, useRef, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from './AuthProvider';
import { FullPageLoading } from './FullPageLoading';

export function RequireAuth({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated } = useAuth();
  const navigate = useNavigate();
  // A session that ends while a guarded page is open is a log out: that goes home, not to /login.
  const wasAuthenticated = useRef(false);
  useEffect(() => {
    if (isAuthenticated) wasAuthenticated.current = true;
    else if (!isLoading) navigate(wasAuthenticated.current ? '/' : '/login', { replace: true });
  }, [isLoading, isAuthenticated, navigate]);
  if (isLoading || !isAuthenticated) return <FullPageLoading />;
  return <>{children}</>;
}
