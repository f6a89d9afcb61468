import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router';

// React Router's <ScrollRestoration> needs its data router, which the app no longer uses (router.tsx).
// This does what it did, with the same storage key, so positions saved before survive the change:
// each history entry remembers where the window was; coming back to an entry (back/forward, reload)
// scrolls there, a new entry scrolls to its #hash element or to the top.
const STORAGE_KEY = 'react-router-scroll-positions';

let positions: Record<string, number> | null = null;

function load(): Record<string, number> {
  if (!positions) {
    try {
      positions = JSON.parse(sessionStorage.getItem(STORAGE_KEY) || '{}') as Record<string, number>;
    } catch {
      positions = {};
    }
  }
  return positions;
}

function persist() {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(load()));
  } catch (error) {
    console.warn(`Failed to save scroll positions in sessionStorage (${String(error)})`);
  }
}

export function ScrollRestoration() {
  const location = useLocation();
  // The entry the window's scroll position belongs to: the one last rendered.
  const current = useRef<string | null>(null);

  useEffect(() => {
    window.history.scrollRestoration = 'manual';
    // Scroll events fire after the scroll, so by the time a navigation renders, the leaving entry's
    // position is already recorded (and the new page's own layout cannot overwrite it).
    const onScroll = () => {
      if (current.current) load()[current.current] = window.scrollY;
    };
    const onPageHide = () => {
      onScroll();
      persist();
      window.history.scrollRestoration = 'auto';
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', onPageHide);
      window.history.scrollRestoration = 'auto';
    };
  }, []);

  useLayoutEffect(() => {
    if (current.current) load()[current.current] = load()[current.current] ?? window.scrollY;
    current.current = location.key;
    const saved = load()[location.key];
    if (typeof saved === 'number') {
      window.scrollTo(0, saved);
      return;
    }
    if (location.hash) {
      try {
        const el = document.getElementById(decodeURIComponent(location.hash.slice(1)));
        if (el) {
          el.scrollIntoView();
          return;
        }
      } catch {
        console.warn(`"${location.hash.slice(1)}" is not a decodable element ID. The view will not scroll to it.`);
      }
    }
    window.scrollTo(0, 0);
  }, [location]);

  return null;
}
