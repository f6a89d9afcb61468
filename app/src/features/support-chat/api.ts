import type { ChatMessageInput } from '../../../../shared/schemas/support';
import { supportApi } from '../../lib/support-client';
import { CHAT_INVALID_RESPONSE } from './constants';
import type { ChatMessage } from './types';

/** Earlier user/assistant turns plus the new one; system notes and image attachments stay local. */
export function toChatHistory(messages: ChatMessage[]): ChatMessageInput[] {
  return messages
    .filter((m): m is ChatMessage & { role: 'user' | 'assistant' } => m.role !== 'system')
    .map(({ role, content }) => ({ role, content }));
}

/** Sends the conversation to the support assistant (`support.chat`) and returns its reply. */
export async function sendChatMessages(messages: ChatMessageInput[]): Promise<string> {
  const result: unknown = await supportApi.chat.mutate({ messages });
  const reply = (result as { reply?: unknown } | null)?.reply;
  if (typeof reply !== 'string') throw new Error(CHAT_INVALID_RESPONSE);
  return reply;
}
