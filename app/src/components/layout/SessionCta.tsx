import { Link } from 'react-router';
import { LayoutDashboard, Wallet } from 'lucide-react';
import { Button } from '../ui/button';
import { useAuth } from '../../features/auth/AuthProvider';

/** 'Connect Wallet' for visitors, 'Go to Dashboard' once signed in. */
export function SessionCta({ size = 'default', className }: { size?: 'default' | 'sm' | 'lg'; className?: string }) {
  const { isAuthenticated } = useAuth();
  return isAuthenticated ? (
    <Button asChild size={size} className={className}>
      <Link to="/dashboard">
        <LayoutDashboard aria-hidden="true" />
        Go to Dashboard
      </Link>
    </Button>
  ) : (
    <Button asChild size={size} className={className}>
      <Link to="/login">
        <Wallet aria-hidden="true" />
        Connect Wallet
      </Link>
    </Button>
  );
}
