import { useEffect, useRef } from 'react';
import { AlertCircle } from 'lucide-react';
import { cn } from '../../lib/utils';
import type { ChatMessage } from './types';
import { formatTime } from '../../lib/dates';

const STATUS_TEXT = { sending: 'Sending...', sent: 'Sent', error: 'Failed to send' } as const;

function TypingIndicator() {
  return (
    <div className="flex justify-start" role="status" aria-label="Support is typing">
      <div className="flex items-center gap-1 rounded-2xl rounded-bl-sm bg-muted px-4 py-3">
        {[0, 150, 300].map((delay) => (
          <span
            key={delay}
            className="animate-typing size-1.5 rounded-full bg-muted-foreground"
            style={{ animationDelay: `${delay}ms` }}
          />
        ))}
      </div>
    </div>
  );
}

/** Scrolling conversation: 50% of the viewport up to 400 px; bubbles at most 80% wide. */
export function ChatMessageList({ messages, isTyping }: { messages: ChatMessage[]; isTyping: boolean }) {
  const listRef = useRef<HTMLDivElement>(null);

  // Smooth scroll to the latest message or the typing indicator.
  useEffect(() => {
    const el = listRef.current;
    el?.scrollTo?.({ top: el.scrollHeight, behavior: 'smooth' });
  }, [messages, isTyping]);

  return (
    <div
      ref={listRef}
      role="log"
      aria-live="polite"
      aria-label="Conversation"
      data-testid="chat-messages"
      className="flex h-[50vh] max-h-[400px] flex-col gap-3 overflow-y-auto px-4 py-4"
    >
      {messages.map((m) => {
        if (m.role === 'system') {
          return (
            <p
              key={m.id}
              data-role="system"
              className="mx-auto flex max-w-[80%] items-center gap-1.5 rounded-md bg-destructive/10 px-3 py-2 text-center text-xs text-destructive"
            >
              <AlertCircle className="size-3.5 shrink-0" aria-hidden="true" />
              {m.content}
            </p>
          );
        }
        const mine = m.role === 'user';
        return (
          <div key={m.id} data-role={m.role} className={cn('flex flex-col', mine ? 'items-end' : 'items-start')}>
            <div
              className={cn(
                'max-w-[80%] rounded-2xl px-3.5 py-2 text-sm break-words whitespace-pre-wrap',
                mine ? 'rounded-br-sm bg-primary text-primary-foreground' : 'rounded-bl-sm bg-muted text-foreground',
              )}
            >
              {m.attachment && (
                <img
                  src={m.attachment.url}
                  alt={m.attachment.name ?? 'Attached image'}
                  className={cn('max-h-48 rounded-lg object-contain', m.content && 'mb-1.5')}
                />
              )}
              {m.content}
            </div>
            <p className="mt-1 flex items-center gap-1.5 px-1 text-[11px] text-muted-foreground">
              <time dateTime={m.timestamp.toISOString()}>{formatTime(m.timestamp)}</time>
              {mine && m.status && (
                <span data-status={m.status} className={cn(m.status === 'error' && 'font-medium text-destructive')}>
                  · {STATUS_TEXT[m.status]}
                </span>
              )}
            </p>
          </div>
        );
      })}
      {isTyping && <TypingIndicator />}
    </div>
  );
}
