import { useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * The bottom strip that holds every page's floating controls (feedback bottom left, support chat
 * bottom right, the development notice between them). It is opaque and the page reserves its height
 * (--dock-height, body padding), so nothing floating ever lies over content or controls: what scrolls
 * under it is hidden, as under a sticky header, and the end of every page scrolls clear of it. Beside
 * the desktop sidebar it starts at the sidebar's edge (--dock-left, set by the signed-in layout).
 */
export function FloatingDock({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const root = document.documentElement;
    const set = () => root.style.setProperty('--dock-height', `${Math.ceil(el.getBoundingClientRect().height)}px`);
    set();
    const ro = new ResizeObserver(set);
    ro.observe(el);
    return () => {
      ro.disconnect();
      root.style.removeProperty('--dock-height');
    };
  }, []);
  return (
    <div
      ref={ref}
      data-testid="floating-dock"
      className="@container fixed right-0 bottom-0 left-[var(--dock-left,0px)] z-40 border-t bg-background pb-[env(safe-area-inset-bottom)] transition-[left] duration-[var(--dock-left-transition,0ms)] ease-linear"
    >
      <div className="flex items-center justify-between gap-2 px-3 py-2 @xl:gap-3 @xl:px-6">{children}</div>
    </div>
  );
}
