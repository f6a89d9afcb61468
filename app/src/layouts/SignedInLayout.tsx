// Shell of the signed-in routes: shadcn sidebar on desktop (Ctrl/Cmd+B, state in a 7-day cookie),
// a top bar with a menu below 768 px. The wallet provider is mounted here (and on /login) only.
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { Building2, FileText, LayoutDashboard, Loader2, LogOut, SearchCheck, ShieldCheck, User, UserCog } from 'lucide-react';
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarGroup,
  SidebarGroupContent,
  SidebarHeader,
  SidebarInset,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarProvider,
  SidebarTrigger,
  SIDEBAR_WIDTH,
  SIDEBAR_WIDTH_ICON,
  useSidebar,
} from '../components/ui/sidebar';
import { RequireAuth } from '../features/auth/RequireAuth';
import { shortAddress, useAuth } from '../features/auth/AuthProvider';
import WalletSessionProvider, { useWalletSession } from '../features/wallet/WalletSession';
import { UserAvatar } from '../features/profile/UserAvatar';

const NAV = [
  { to: '/dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { to: '/certificates', label: 'Certificates', icon: FileText },
  { to: '/verification', label: 'Verification', icon: SearchCheck },
  { to: '/profile', label: 'Profile', icon: User },
  // Every signed-in wallet: an institution's portal, or where to register one.
  { to: '/institution', label: 'Institution', icon: Building2 },
];
/** Only for wallets listed as operators (auth.me roles). */
const OPERATOR_NAV = { to: '/operator', label: 'Operator', icon: UserCog };

function AppSidebar() {
  const { pathname } = useLocation();
  const { user, roles } = useAuth();
  const nav = roles.operator ? [...NAV, OPERATOR_NAV] : NAV;
  const { disconnectAndLogout, disconnecting } = useWalletSession();
  const { isMobile, setOpenMobile } = useSidebar();
  const navigate = useNavigate();
  const close = () => isMobile && setOpenMobile(false);

  async function logOut() {
    close();
    // Leave the guarded routes before the session ends, or the guard would redirect to /login.
    await disconnectAndLogout(async () => {
      await navigate('/');
    });
  }

  return (
    <Sidebar collapsible="icon">
      <SidebarHeader>
        <SidebarMenu>
          <SidebarMenuItem>
            <SidebarMenuButton asChild size="lg" tooltip="Attesta home">
              <Link to="/" onClick={close}>
                <ShieldCheck className="text-primary" aria-hidden="true" />
                <span className="text-base font-semibold">Attesta</span>
              </Link>
            </SidebarMenuButton>
          </SidebarMenuItem>
        </SidebarMenu>
      </SidebarHeader>
      <SidebarContent>
        <SidebarGroup>
          <SidebarGroupContent>
            <nav aria-label="Main navigation">
            <SidebarMenu>
              {nav.map(({ to, label, icon: Icon }) => {
                const active = pathname === to || pathname.startsWith(`${to}/`);
                return (
                  <SidebarMenuItem key={to}>
                    <SidebarMenuButton asChild isActive={active} tooltip={label}>
                      <NavLink to={to} onClick={close} aria-current={active ? 'page' : undefined}>
                        <Icon aria-hidden="true" />
                        <span>{label}</span>
                      </NavLink>
                    </SidebarMenuButton>
                  </SidebarMenuItem>
                );
              })}
            </SidebarMenu>
            </nav>
          </SidebarGroupContent>
        </SidebarGroup>
      </SidebarContent>
      <SidebarFooter>
        <SidebarMenu>
          {user && (
            <SidebarMenuItem>
              <div className="flex items-center gap-2 overflow-hidden px-1 py-1.5 group-data-[collapsible=icon]:hidden">
                <UserAvatar user={user} className="size-8" />
                <div className="min-w-0 text-sm leading-tight">
                  <p className="truncate font-medium">{user.full_name || 'User'}</p>
                  <p className="truncate font-mono text-xs text-muted-foreground">{shortAddress(user.wallet_address)}</p>
                </div>
              </div>
            </SidebarMenuItem>
          )}
          <SidebarMenuItem>
            <SidebarMenuButton tooltip="Log Out" onClick={() => void logOut()} disabled={disconnecting}>
              {disconnecting ? <Loader2 className="animate-spin" aria-hidden="true" /> : <LogOut aria-hidden="true" />}
              <span>Log Out</span>
            </SidebarMenuButton>
          </SidebarMenuItem>
        </SidebarMenu>
      </SidebarFooter>
    </Sidebar>
  );
}

/** Below 768 px the sidebar becomes a sheet opened from this bar. */
function TopBar() {
  return (
    <header className="sticky top-0 z-20 flex h-14 items-center gap-2 border-b bg-background/95 px-4 backdrop-blur md:h-12">
      <SidebarTrigger aria-label="Toggle menu" />
      <Link to="/dashboard" className="inline-flex items-center gap-2 font-semibold md:hidden">
        <ShieldCheck className="size-5 text-primary" aria-hidden="true" /> Attesta
      </Link>
    </header>
  );
}

/**
 * The floating dock (app/FloatingDock.tsx: feedback, the development notice, support chat) starts at
 * the desktop sidebar's edge, open or collapsed to icons, so it never covers the sidebar's footer (the
 * wallet and Log Out). On mobile the sidebar is a sheet over everything, and the dock spans the width.
 */
function FloatingWidgetsBesideSidebar() {
  const { state, isMobile } = useSidebar();
  const placed = useRef(false);
  useEffect(() => {
    const root = document.documentElement;
    // Placed at once when the layout opens; afterwards it follows the sidebar's own 200 ms toggle.
    root.style.setProperty('--dock-left-transition', placed.current ? '200ms' : '0ms');
    placed.current = true;
    if (isMobile) root.style.removeProperty('--dock-left');
    else root.style.setProperty('--dock-left', state === 'expanded' ? SIDEBAR_WIDTH : SIDEBAR_WIDTH_ICON);
  }, [state, isMobile]);
  useEffect(
    () => () => {
      document.documentElement.style.removeProperty('--dock-left');
      document.documentElement.style.removeProperty('--dock-left-transition');
    },
    [],
  );
  return null;
}

export function SignedInShell({ children }: { children?: ReactNode }) {
  return (
    <WalletSessionProvider>
      <SidebarProvider>
        <FloatingWidgetsBesideSidebar />
        <AppSidebar />
        {/* min-w-0: a flex item's automatic minimum width is its content's, so without it one wide child
            (a table, a long token) would widen the whole page past the window instead of wrapping or
            scrolling inside its own box. */}
        <SidebarInset className="min-w-0">
          <TopBar />
          {/* SidebarInset is the <main> landmark already. */}
          <div id="main-content" className="flex-1 p-4 md:p-6 lg:p-8">
            {children ?? <Outlet />}
          </div>
        </SidebarInset>
      </SidebarProvider>
    </WalletSessionProvider>
  );
}

export default function SignedInLayout({ children }: { children?: ReactNode }) {
  return (
    <RequireAuth>
      <SignedInShell>{children}</SignedInShell>
    </RequireAuth>
  );
}
