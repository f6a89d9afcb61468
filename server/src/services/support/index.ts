import type { Kysely } from 'kysely';
import type { ChatMessageInput } from '../../../../shared/schemas/support';
import { answerFromContent } from './assistant';
import { completeChat } from './chat-api';
import type { SupportConfig } from '../../config';
import { SupportOutbox } from './outbox';
import type { Database } from '../../db/schema';
import { RateLimiter } from './rate-limit';

export type { SupportConfig } from '../../config';
export { SUPPORT_LIMITS } from './rate-limit';

/** Support chat, contact and feedback: one per server (compose.ts), with its limiter and outbox. */
export class SupportService {
  readonly limiter = new RateLimiter();
  readonly outbox: SupportOutbox;

  constructor(
    db: Kysely<Database>,
    readonly config: SupportConfig,
  ) {
    this.outbox = new SupportOutbox(db, config);
  }

  /** The external assistant when CHAT_API_URL is set, else the built-in one over the FAQ and docs. */
  async chat(messages: ChatMessageInput[]): Promise<string> {
    if (this.config.chat) return completeChat(this.config.chat, recentHistory(messages));
    return answerFromContent(messages);
  }
}

/** Provider calls cost per token: forward only the latest turns, up to this many characters. */
export const CHAT_HISTORY_CHARS = 16_000;

export function recentHistory(messages: ChatMessageInput[], maxChars = CHAT_HISTORY_CHARS): ChatMessageInput[] {
  const out: ChatMessageInput[] = [];
  let used = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    used += messages[i].content.length;
    // The newest message always goes, whatever its size (the schema caps it).
    if (out.length && used > maxChars) break;
    out.unshift(messages[i]);
  }
  return out;
}
