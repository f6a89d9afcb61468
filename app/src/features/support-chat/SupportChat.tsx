import { lazy, Suspense } from 'react';
import { MessageCircle, X } from 'lucide-react';
import { useSupportChat } from './SupportChatContext';

// The panel (popover, emoji picker, message list) loads on first open.
const ChatPanel = lazy(() => import('./ChatPanel'));

/** Support chat on every page: the launcher (bottom right of the floating dock) with its unread badge. */
export function SupportChat() {
  const { isOpen, unreadCount, toggle } = useSupportChat();

  return (
    <>
      {isOpen && (
        <Suspense fallback={null}>
          <ChatPanel />
        </Suspense>
      )}

      <button
        type="button"
        onClick={toggle}
        aria-label={isOpen ? 'Close support chat' : 'Open support chat'}
        aria-expanded={isOpen}
        data-testid="chat-launcher"
        className="relative flex size-12 shrink-0 items-center justify-center rounded-full bg-primary text-primary-foreground shadow-sm transition-transform hover:scale-105 focus-visible:ring-4 focus-visible:ring-ring/50 focus-visible:outline-none"
      >
        {isOpen ? <X className="size-6" aria-hidden="true" /> : <MessageCircle className="size-6" aria-hidden="true" />}
        {unreadCount > 0 && (
          <span
            data-testid="chat-unread"
            aria-label={`${unreadCount} unread ${unreadCount === 1 ? 'message' : 'messages'}`}
            className="absolute -top-1 -right-1 flex h-5 min-w-5 items-center justify-center rounded-full bg-destructive px-1 text-xs font-semibold text-white ring-2 ring-background"
          >
            {unreadCount}
          </span>
        )}
      </button>
    </>
  );
}
