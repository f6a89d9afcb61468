// Toasts through sonner, loaded with the first toast instead of with every page: the public verifier
// pages (a shared link an employer opens) rarely show one and must stay small. Sonner replays toasts
// raised before its Toaster subscribes, so nothing is lost while the chunk loads.
import type { ExternalToast } from 'sonner';

type Sonner = typeof import('sonner');

let sonner: Promise<Sonner> | null = null;
const whenNeeded = new Set<() => void>();

/** Starts loading sonner (once) and tells the lazy Toaster to mount. */
export function loadSonner(): Promise<Sonner> {
  if (!sonner) {
    sonner = import('sonner');
    for (const notify of whenNeeded) notify();
  }
  return sonner;
}

/** True once some toast has been raised (the Toaster must be on the page from then on). */
export function toasterNeeded(): boolean {
  return sonner !== null;
}

/** Calls `notify` when the first toast is raised; returns the unsubscribe function. */
export function onToasterNeeded(notify: () => void): () => void {
  whenNeeded.add(notify);
  return () => whenNeeded.delete(notify);
}

function show(kind: 'success' | 'error' | 'message', title: string, options?: ExternalToast): void {
  void loadSonner().then(({ toast: sonnerToast }) => sonnerToast[kind](title, options));
}

/** The subset of sonner's `toast` the app uses, with the same signatures. */
export const toast = {
  success: (title: string, options?: ExternalToast) => show('success', title, options),
  error: (title: string, options?: ExternalToast) => show('error', title, options),
  message: (title: string, options?: ExternalToast) => show('message', title, options),
};
