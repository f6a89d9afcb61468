import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { sendChatMessages, toChatHistory } from './api';
import {
  CHAT_ERROR_MESSAGE,
  CHAT_GREETING,
  GREETING_DELAY_MS,
  SENT_STATUS_DELAY_MS,
  TYPING_DELAY_MIN_MS,
  TYPING_DELAY_SPREAD_MS,
} from './constants';
import type { ChatMessage } from './types';

interface SupportChatState {
  isOpen: boolean;
  isMinimized: boolean;
  messages: ChatMessage[];
  unreadCount: number;
  /** A reply is awaited: input and send are disabled, the typing indicator shows. */
  isAwaitingReply: boolean;
  open: () => void;
  close: () => void;
  /** The launcher: opens (clearing minimised) or closes. */
  toggle: () => void;
  setMinimized: (minimized: boolean) => void;
  send: (content: string, attachment?: ChatMessage['attachment']) => Promise<void>;
}

const SupportChatContext = createContext<SupportChatState | null>(null);

let nextId = 0;
const newId = () => `msg-${Date.now().toString(36)}-${(nextId++).toString(36)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function SupportChatProvider({ children }: { children: ReactNode }) {
  const [isOpen, setIsOpen] = useState(false);
  const [isMinimized, setMinimized] = useState(false);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [unreadCount, setUnreadCount] = useState(0);
  const [isAwaitingReply, setAwaiting] = useState(false);

  // Read inside async flows, where state captured at call time would be stale.
  const isOpenRef = useRef(isOpen);
  isOpenRef.current = isOpen;
  const messagesRef = useRef(messages);
  messagesRef.current = messages;

  const addAssistantMessage = useCallback((content: string) => {
    setMessages((prev) => [...prev, { id: newId(), role: 'assistant', content, timestamp: new Date() }]);
    if (!isOpenRef.current) setUnreadCount((n) => n + 1);
  }, []);

  const open = useCallback(() => {
    setIsOpen(true);
    setMinimized(false);
    setUnreadCount(0);
  }, []);
  const close = useCallback(() => setIsOpen(false), []);
  const toggle = useCallback(() => (isOpenRef.current ? close() : open()), [open, close]);

  // First open with an empty conversation: greet after 800 ms.
  const greeted = useRef(false);
  useEffect(() => {
    if (!isOpen || greeted.current || messagesRef.current.length > 0) return;
    greeted.current = true;
    const timer = setTimeout(() => addAssistantMessage(CHAT_GREETING), GREETING_DELAY_MS);
    return () => {
      clearTimeout(timer);
      greeted.current = false;
    };
  }, [isOpen, addAssistantMessage]);

  const awaitingRef = useRef(false);
  const send = useCallback(
    async (content: string, attachment?: ChatMessage['attachment']) => {
      const text = content.trim();
      if ((!text && !attachment) || awaitingRef.current) return;
      awaitingRef.current = true;
      setAwaiting(true);

      const userMessage: ChatMessage = {
        id: newId(),
        role: 'user',
        content: text,
        timestamp: new Date(),
        status: 'sending',
        attachment,
      };
      const history = toChatHistory([...messagesRef.current, userMessage]);
      setMessages((prev) => [...prev, userMessage]);
      const setStatus = (status: ChatMessage['status']) =>
        setMessages((prev) => prev.map((m) => (m.id === userMessage.id ? { ...m, status } : m)));

      const sentTimer = setTimeout(() => setStatus('sent'), SENT_STATUS_DELAY_MS);
      try {
        // The assistant "types" for 1–3 s while the request runs; the answer (or the error) shows after both.
        const typing = sleep(TYPING_DELAY_MIN_MS + Math.floor(Math.random() * TYPING_DELAY_SPREAD_MS));
        const [outcome] = await Promise.allSettled([sendChatMessages(history), typing]);
        if (outcome.status === 'rejected') throw outcome.reason;
        addAssistantMessage(outcome.value);
      } catch (error) {
        console.error('Support chat request failed', error);
        clearTimeout(sentTimer);
        setStatus('error');
        setMessages((prev) => [
          ...prev,
          { id: newId(), role: 'system', content: CHAT_ERROR_MESSAGE, timestamp: new Date() },
        ]);
      } finally {
        awaitingRef.current = false;
        setAwaiting(false);
      }
    },
    [addAssistantMessage],
  );

  const value = useMemo<SupportChatState>(
    () => ({ isOpen, isMinimized, messages, unreadCount, isAwaitingReply, open, close, toggle, setMinimized, send }),
    [isOpen, isMinimized, messages, unreadCount, isAwaitingReply, open, close, toggle, send],
  );

  return <SupportChatContext.Provider value={value}>{children}</SupportChatContext.Provider>;
}

export function useSupportChat(): SupportChatState {
  const ctx = useContext(SupportChatContext);
  if (!ctx) throw new Error('useSupportChat must be used within a SupportChatProvider');
  return ctx;
}
