import { useEffect, useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { Bot, ImagePlus, Maximize2, Minimize2, SendHorizontal, Smile, X } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '../../components/ui/popover';
import { Textarea } from '../../components/ui/textarea';
import { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger } from '../../components/ui/tooltip';
import { CHAT_EMOJIS, FOCUS_DELAY_MS } from './constants';
import { ChatMessageList } from './ChatMessageList';
import { useSupportChat } from './SupportChatContext';
import type { ChatMessage } from './types';

function IconButton({
  label,
  tooltip = label,
  ...props
}: React.ComponentProps<typeof Button> & { label: string; tooltip?: string }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button variant="ghost" size="icon-sm" aria-label={label} {...props} />
      </TooltipTrigger>
      <TooltipContent>{tooltip}</TooltipContent>
    </Tooltip>
  );
}

function readAsDataUrl(file: File) {
  return new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** The open chat panel; loaded on first open (see SupportChat). */
// The chat's tooltips get their provider here, in this lazily loaded chunk, rather than at the app
// root: pages that never open the chat (the public verifier pages above all) skip the tooltip and
// positioning code.
export default function ChatPanel() {
  return (
    <TooltipProvider>
      <ChatPanelContent />
    </TooltipProvider>
  );
}

function ChatPanelContent() {
  const { isOpen, isMinimized, messages, isAwaitingReply, close, setMinimized, send } = useSupportChat();
  const [draft, setDraft] = useState('');
  const [attachment, setAttachment] = useState<ChatMessage['attachment']>();
  const [emojiOpen, setEmojiOpen] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  // Focus the input shortly after the panel opens (not when minimised).
  useEffect(() => {
    if (!isOpen || isMinimized) return;
    const timer = setTimeout(() => inputRef.current?.focus(), FOCUS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [isOpen, isMinimized]);

  const canSend = (draft.trim().length > 0 || !!attachment) && !isAwaitingReply;

  function submit() {
    if (!canSend) return;
    void send(draft, attachment);
    setDraft('');
    setAttachment(undefined);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  }

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file || !file.type.startsWith('image/')) return;
    setAttachment({ type: 'image', url: await readAsDataUrl(file), name: file.name });
    inputRef.current?.focus();
  }

  function addEmoji(emoji: string) {
    setDraft((d) => d + emoji);
    setEmojiOpen(false);
    inputRef.current?.focus();
  }

  return (
      <section
      role="dialog"
      aria-label="Support chat"
      data-testid="support-chat"
      className="animate-in-up fixed right-4 bottom-[calc(var(--dock-height,4rem)+0.75rem)] z-50 flex w-[min(24rem,calc(100vw-2rem))] flex-col overflow-hidden rounded-xl border bg-card text-card-foreground shadow-2xl sm:right-6"
    >
      <header className="flex items-center gap-3 border-b bg-primary px-4 py-3 text-primary-foreground">
        <span className="flex size-9 items-center justify-center rounded-full bg-primary-foreground/15">
          <Bot className="size-5" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          <h2 className="leading-tight font-semibold">Support</h2>
          <p className="flex items-center gap-1.5 text-xs text-primary-foreground/80">
            <span className="size-2 rounded-full bg-emerald-400" aria-hidden="true" />
            Online
          </p>
        </div>
        <IconButton
          label={isMinimized ? 'Expand' : 'Minimize'}
          onClick={() => setMinimized(!isMinimized)}
          className="text-primary-foreground hover:bg-primary-foreground/15 hover:text-primary-foreground"
        >
          {isMinimized ? <Maximize2 aria-hidden="true" /> : <Minimize2 aria-hidden="true" />}
        </IconButton>
        <IconButton
          label="Close"
          onClick={close}
          className="text-primary-foreground hover:bg-primary-foreground/15 hover:text-primary-foreground"
        >
          <X aria-hidden="true" />
        </IconButton>
      </header>

      {!isMinimized && (
        <>
          <ChatMessageList messages={messages} isTyping={isAwaitingReply} />
          <form
            className="border-t p-3"
            onSubmit={(e) => {
              e.preventDefault();
              submit();
            }}
          >
            {attachment && (
              <div className="mb-2 flex items-center gap-2 rounded-md border bg-muted/50 p-1.5">
                <img src={attachment.url} alt="Attachment preview" className="size-10 rounded object-cover" />
                <span className="flex-1 truncate text-xs text-muted-foreground">{attachment.name}</span>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon-sm"
                  aria-label="Remove attachment"
                  onClick={() => setAttachment(undefined)}
                >
                  <X aria-hidden="true" />
                </Button>
              </div>
            )}
            <div className="flex items-end gap-1">
              <Popover open={emojiOpen} onOpenChange={setEmojiOpen}>
                <Tooltip>
                  <TooltipTrigger asChild>
                    <PopoverTrigger asChild>
                      <Button type="button" variant="ghost" size="icon-sm" aria-label="Add emoji" disabled={isAwaitingReply}>
                        <Smile aria-hidden="true" />
                      </Button>
                    </PopoverTrigger>
                  </TooltipTrigger>
                  <TooltipContent>Add emoji</TooltipContent>
                </Tooltip>
                <PopoverContent side="top" align="start" className="flex w-auto gap-1 p-1.5">
                  {CHAT_EMOJIS.map(({ emoji, label }) => (
                    <button
                      key={emoji}
                      type="button"
                      aria-label={label}
                      onClick={() => addEmoji(emoji)}
                      className="flex size-9 items-center justify-center rounded-md text-xl transition-colors hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
                    >
                      {emoji}
                    </button>
                  ))}
                </PopoverContent>
              </Popover>
              <IconButton
                type="button"
                label="Attach File"
                onClick={() => fileRef.current?.click()}
                disabled={isAwaitingReply}
              >
                <ImagePlus aria-hidden="true" />
              </IconButton>
              <input
                ref={fileRef}
                type="file"
                accept="image/*"
                className="hidden"
                tabIndex={-1}
                aria-hidden="true"
                onChange={onFile}
              />
              <Textarea
                ref={inputRef}
                rows={1}
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                onKeyDown={onKeyDown}
                placeholder="Type your message..."
                aria-label="Message"
                disabled={isAwaitingReply}
                className="max-h-28 min-h-9 flex-1 resize-none py-1.5"
              />
              <IconButton type="submit" label="Send" size="icon" variant="default" disabled={!canSend}>
                <SendHorizontal aria-hidden="true" />
              </IconButton>
            </div>
          </form>
        </>
      )}
    </section>
  );
}
