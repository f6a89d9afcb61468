import type { SupportConfig } from '../../config';

// Telegram Bot API sendMessage (https://core.telegram.org/bots/api#sendmessage), called by the server
// with the bot token from its environment.

export const TELEGRAM_MAX_TEXT = 4096;

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Cuts an HTML-escaped text to Telegram's limit without splitting an entity such as `&amp;`. */
export function fitTelegram(text: string, max = TELEGRAM_MAX_TEXT): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max - 1).replace(/&[a-z#0-9]*$/i, '')}…`;
}

export class ForwardError extends Error {
  constructor(
    message: string,
    /** The provider's own explanation (Telegram's `description`), shown to the visitor when present. */
    readonly providerDescription: string | null = null,
    readonly timedOut = false,
  ) {
    super(message);
  }
}

export interface TelegramResult {
  ok: boolean;
  description?: string;
}

export async function sendTelegram(cfg: NonNullable<SupportConfig['telegram']>, text: string, timeoutMs: number): Promise<void> {
  const url = `${cfg.apiUrl}/bot${cfg.token}/sendMessage`;
  let res: Response;
  let raw: string;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: cfg.chatId, text: fitTelegram(text), parse_mode: 'HTML' }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    raw = await res.text();
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    // Never include the URL: it holds the bot token.
    throw new ForwardError(timedOut ? 'Telegram did not answer in time' : `Telegram unreachable: ${(err as Error)?.cause ?? err}`.replaceAll(cfg.token, '***'), null, timedOut);
  }
  let body: TelegramResult | null = null;
  try {
    body = JSON.parse(raw) as TelegramResult;
  } catch {
    body = null;
  }
  if (res.ok && body?.ok === true) return;
  const description = typeof body?.description === 'string' && body.description ? body.description : null;
  throw new ForwardError(`Telegram error (HTTP ${res.status})${description ? `: ${description}` : ''}`, description);
}
