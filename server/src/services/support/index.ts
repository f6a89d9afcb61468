import type { Kysely } from 'kysely';
import type { ChatMessageInput } from '../../../../shared/schemas/support';
import { answerFromContent } from './assistant';
import { completeChat } from './chat-api';
import { loadSupportConfig, type SupportConfig } from './config';
import { SupportOutbox, type SupportTables } from './outbox';
import { RateLimiter } from './rate-limit';

export { loadSupportConfig, type SupportConfig } from './config';
export { SUPPORT_LIMITS } from './rate-limit';

export class SupportService {
  readonly limiter = new RateLimiter();
  readonly outbox: SupportOutbox;

  constructor(
    db: Kysely<any>,
    readonly config: SupportConfig,
  ) {
    this.outbox = new SupportOutbox(db as Kysely<SupportTables>, config);
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

// One service (config, limiter) per database handle: the server has one, each test server its own.
const services = new WeakMap<object, SupportService>();

export function supportServiceFor(db: Kysely<any>, env: Record<string, string | undefined>): SupportService {
  let s = services.get(db);
  if (!s) {
    s = new SupportService(db, loadSupportConfig(env));
    services.set(db, s);
  }
  return s;
}
