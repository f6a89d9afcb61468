import { DomainError } from '../../lib/errors';
import type { ChatMessageInput } from '../../../../shared/schemas/support';
import type { SupportConfig } from '../../config';

export const INVALID_API_RESPONSE = 'Invalid response from API';

export const SYSTEM_PROMPT =
  "You are Attesta's support assistant. Attesta issues and verifies digital certificates anchored on the Solana blockchain: " +
  'holders sign in with a Solana wallet, add certificates (PDF or images converted to PDF), which are hashed, anchored on chain, verified ' +
  'and can be minted as soulbound NFTs; anyone can verify a certificate by link, ID, hash or file. Answer briefly and only about Attesta. ' +
  'Never ask for a recovery phrase or private key. When you do not know, point the user to the contact page (/contact-us).';

/**
 * Forwards the conversation to an OpenAI-compatible chat-completions endpoint from the server (the key
 * never reaches the browser) and returns `choices[0].message.content`.
 */
export async function completeChat(cfg: NonNullable<SupportConfig['chat']>, messages: ChatMessageInput[], fetchImpl: typeof fetch = fetch): Promise<string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (cfg.apiKey) headers.authorization = `Bearer ${cfg.apiKey}`;
  const body = JSON.stringify({
    model: cfg.model,
    // Our system prompt first; the browser only sends user and assistant turns (the schema refuses others).
    messages: [{ role: 'system', content: SYSTEM_PROMPT }, ...messages.map(({ role, content }) => ({ role, content }))],
  });
  let res: Response;
  let text: string;
  try {
    res = await fetchImpl(cfg.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(cfg.timeoutMs) });
    text = await res.text();
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    throw new DomainError(timedOut ? 'GATEWAY_TIMEOUT' : 'BAD_GATEWAY', timedOut ? 'The support assistant did not answer in time.' : 'The support assistant could not be reached.', {
      cause: err,
    });
  }
  if (!res.ok) {
    // The provider's body may echo request details; log it server-side (cause), don't show it.
    throw new DomainError('BAD_GATEWAY', `The support assistant failed (HTTP ${res.status}).`, { cause: new Error(text.slice(0, 500)) });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new DomainError('BAD_GATEWAY', INVALID_API_RESPONSE);
  }
  const content = (data as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new DomainError('BAD_GATEWAY', INVALID_API_RESPONSE);
  return content;
}
