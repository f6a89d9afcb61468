import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageLoader } from '../components/layout/PageLoader';
import { DevBanner } from '../features/dev-banner/DevBanner';
import { FeedbackWidget } from '../features/feedback/FeedbackWidget';
import { SupportChat } from '../features/support-chat/SupportChat';
import { SupportChatProvider } from '../features/support-chat/SupportChatContext';
import { FloatingDock } from './FloatingDock';
import { ScrollRestoration } from './ScrollRestoration';

/** Wraps every route: skip link, development notice, support chat and feedback. */
export function RootLayout() {
  return (
    <SupportChatProvider>
      <a
        href="#main-content"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[100] focus:rounded-md focus:bg-background focus:px-3 focus:py-2 focus:text-sm focus:shadow"
      >
        Skip to content
      </a>
      <Suspense fallback={<PageLoader />}>
        <Outlet />
      </Suspense>
      <FloatingDock>
        <FeedbackWidget />
        <DevBanner />
        <SupportChat />
      </FloatingDock>
      <ScrollRestoration />
    </SupportChatProvider>
  );
}
