// /login: Connect Wallet, then a signature proves the wallet is yours (PRODUCT.md: real sign-in).
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ShieldCheck, Wallet } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../components/ui/card';
import WalletSessionProvider, { useWalletSession } from '../wallet/WalletSession';
import { homeFor, useAuth } from './AuthProvider';
import { FullPageLoading } from './FullPageLoading';

// The wallet picker (a Radix dialog: focus trap, scroll lock, portal) loads when the holder reaches for
// the button, not with the page: the page's first paint is the card and its one button.
const loadDialog = () => import('../wallet/ConnectWalletDialog');
const ConnectWalletDialog = lazy(() => loadDialog().then((m) => ({ default: m.ConnectWalletDialog })));

function LoginCard() {
  const { isAuthenticated, isLoading, roles } = useAuth();
  const { connecting } = useWalletSession();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  // Mounted from the first open on, so closing plays the dialog's exit like before.
  const [opened, setOpened] = useState(false);
  const openDialog = () => {
    setOpened(true);
    setOpen(true);
  };

  // Signed in (now, through the dialog, or already): to the wallet's own page (auth.me's roles are read
  // with the session, AuthProvider.login).
  const home = homeFor(roles);
  useEffect(() => {
    if (isAuthenticated) navigate(home, { replace: true });
  }, [isAuthenticated, home, navigate]);

  if (isLoading) return <FullPageLoading />;

  return (
    <main className="flex min-h-screen items-center justify-center bg-muted/40 px-4 py-12">
      <Card className="w-full max-w-md">
        <CardHeader className="items-center text-center">
          <Link to="/" className="mb-2 inline-flex items-center gap-2 justify-self-center text-lg font-semibold">
            <ShieldCheck className="size-6 text-primary" aria-hidden="true" /> Attesta
          </Link>
          <CardTitle>
            <h1 className="text-2xl">Connect your wallet</h1>
          </CardTitle>
          <CardDescription>Sign in with your Solana wallet to add, verify, mint and share your certificates.</CardDescription>
        </CardHeader>
        <CardContent>
          <Button
            type="button"
            size="lg"
            className="w-full"
            disabled={connecting}
            onPointerEnter={() => void loadDialog()}
            onFocus={() => void loadDialog()}
            onClick={openDialog}
          >
            <Wallet className="size-4" aria-hidden="true" />
            {connecting ? 'Connecting....' : 'Connect Wallet'}
          </Button>
        </CardContent>
        <CardFooter className="justify-center text-center text-xs text-muted-foreground">
          <p>
            By connecting your wallet, you agree to our{' '}
            <Link to="/terms-of-service" className="underline underline-offset-4 hover:text-foreground">
              Terms of Service
            </Link>{' '}
            and{' '}
            <Link to="/privacy-policy" className="underline underline-offset-4 hover:text-foreground">
              Privacy Policy
            </Link>
            .
          </p>
        </CardFooter>
      </Card>
      {opened && (
        <Suspense fallback={null}>
          <ConnectWalletDialog open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </main>
  );
}

export default function LoginPage() {
  return (
    <WalletSessionProvider>
      <LoginCard />
    </WalletSessionProvider>
  );
}
