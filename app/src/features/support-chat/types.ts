export type ChatRole = 'user' | 'assistant' | 'system';
export type ChatMessageStatus = 'sending' | 'sent' | 'error';

/** Seed §3 "Chat message". */
export interface ChatMessage {
  id: string;
  role: ChatRole;
  content: string;
  timestamp: Date;
  /** User messages only. */
  status?: ChatMessageStatus;
  attachment?: { type: 'image'; url: string; name?: string };
}
