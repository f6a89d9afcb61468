import { z } from 'zod';

// The support services' own environment (read here so the core config stays untouched). Every
// credential stays on the server: none of these names carries the VITE_ prefix the app build exposes.
const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.url().optional());
const optionalText = z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional());

const supportEnvSchema = z
  .object({
    CHAT_API_URL: optionalUrl,
    CHAT_API_KEY: optionalText,
    CHAT_MODEL: optionalText,
    CHAT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
    TELEGRAM_BOT_TOKEN: optionalText,
    TELEGRAM_CHAT_ID: optionalText,
    TELEGRAM_API_URL: optionalUrl,
    SMTP_URL: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .regex(/^smtps?:\/\//, { error: 'must be smtp://… or smtps://…' })
        .optional(),
    ),
    SMTP_FROM: optionalText,
    CONTACT_TO: optionalText,
    SUPPORT_FORWARD_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  })
  .superRefine((e, ctx) => {
    // Half a channel is a mistake worth failing loudly on, not silently storing everything.
    if (!!e.TELEGRAM_BOT_TOKEN !== !!e.TELEGRAM_CHAT_ID)
      ctx.addIssue({ code: 'custom', path: ['TELEGRAM_CHAT_ID'], message: 'TELEGRAM_BOT_TOKEN and TELEGRAM_CHAT_ID go together' });
    if (!!e.SMTP_URL !== !!e.CONTACT_TO)
      ctx.addIssue({ code: 'custom', path: ['CONTACT_TO'], message: 'SMTP_URL and CONTACT_TO go together' });
  });

export interface SupportConfig {
  chat: { url: string; apiKey: string | null; model: string; timeoutMs: number } | null;
  telegram: { apiUrl: string; token: string; chatId: string } | null;
  smtp: { url: string; from: string; to: string } | null;
  forwardTimeoutMs: number;
}

export class SupportConfigError extends Error {}

export function loadSupportConfig(env: Record<string, string | undefined> = process.env): SupportConfig {
  const parsed = supportEnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new SupportConfigError(`Invalid support configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    chat: e.CHAT_API_URL
      ? { url: e.CHAT_API_URL, apiKey: e.CHAT_API_KEY ?? null, model: e.CHAT_MODEL ?? 'gpt-4o-mini', timeoutMs: e.CHAT_TIMEOUT_MS }
      : null,
    telegram:
      e.TELEGRAM_BOT_TOKEN && e.TELEGRAM_CHAT_ID
        ? { apiUrl: (e.TELEGRAM_API_URL ?? 'https://api.telegram.org').replace(/\/$/, ''), token: e.TELEGRAM_BOT_TOKEN, chatId: e.TELEGRAM_CHAT_ID }
        : null,
    smtp: e.SMTP_URL && e.CONTACT_TO ? { url: e.SMTP_URL, from: e.SMTP_FROM ?? 'attesta@localhost', to: e.CONTACT_TO } : null,
    forwardTimeoutMs: e.SUPPORT_FORWARD_TIMEOUT_MS,
  };
}
