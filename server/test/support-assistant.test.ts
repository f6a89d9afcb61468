import { describe, expect, it } from 'vitest';
import { answerFromContent, FALLBACK_REPLY, SupportIndex, tokenize } from '../src/services/support/assistant';
import { FAQ_CATEGORIES } from '../../shared/content/faq';
import { clientKey, RateLimiter } from '../src/services/support/rate-limit';
import { buildMime } from '../src/services/support/smtp';
import { contactHtml, feedbackHtml } from '../src/services/support/messages';
import { fitTelegram } from '../src/services/support/telegram';

const ask = (content: string, history: { role: 'user' | 'assistant'; content: string }[] = []) =>
  answerFromContent([...history, { role: 'user', content }]);

describe('built-in support assistant (FAQ + documentation)', () => {
  it('answers a wallet question with the FAQ answer and a pointer to the FAQ', () => {
    const wallets = FAQ_CATEGORIES.flatMap((c) => c.entries).find((e) => e.id === 'supported-wallets')!;
    const reply = ask('Which wallets can I use?');
    expect(reply.startsWith(wallets.answer)).toBe(true);
    expect(reply).toContain('/faq');
    expect(ask('do i need SOL to sign in?')).toMatch(/^No\. Signing in is a signed message/);
  });

  it('answers a program question from the documentation with its section link', () => {
    const reply = ask('What instructions does the on-chain program have?');
    expect(reply).toContain('record_verification');
    expect(reply).toContain('mint_certificate');
    expect(reply).toContain('/documentation#blockchain');
    expect(ask('how do I verify with the CLI?')).toContain('npx attesta verify');
  });

  it('greets, thanks, and falls back to the contact page when nothing matches', () => {
    expect(ask('Hello!')).toMatch(/^Hello! How can I help/);
    expect(ask('thanks')).toMatch(/welcome/);
    expect(ask('What is the best pizza recipe in Naples?')).toBe(FALLBACK_REPLY);
    expect(FALLBACK_REPLY).toContain('/contact-us');
  });

  it('uses the previous question for a short follow-up', () => {
    const history = [
      { role: 'user' as const, content: 'Can a certificate be revoked?' },
      { role: 'assistant' as const, content: 'Yes.' },
    ];
    expect(ask('by whom?', history)).toContain('revoke');
  });

  it('tokenizes with light stemming and ranks by BM25', () => {
    expect(tokenize("Which wallets are supported?")).toEqual(['wallet', 'support']);
    const top = new SupportIndex().search('file formats')[0];
    expect(top.passage.title).toBe('What file formats are supported?');
  });
});

describe('support pieces', () => {
  it('token bucket: capacity, then refusal, then refill over the window', () => {
    let now = 0;
    const rl = new RateLimiter(() => now);
    const limit = { capacity: 3, windowMs: 3000, message: 'slow down' };
    expect([1, 2, 3, 4].map(() => rl.take('a', limit))).toEqual([true, true, true, false]);
    expect(rl.take('b', limit)).toBe(true); // other clients are unaffected
    now += 1000; // one token back
    expect(rl.take('a', limit)).toBe(true);
    expect(rl.take('a', limit)).toBe(false);
    expect(() => rl.consume('a', limit)).toThrowError(/slow down/);
  });

  it('keys clients by IPv4 address and by IPv6 /64', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey(undefined)).toBe('internal');
  });

  it('escapes HTML in forwarded texts and cuts to Telegram size without splitting entities', () => {
    const html = contactHtml({ name: '<b>x</b>', email: 'a@b.co', subject: '', inquiryType: 'support', priority: 'urgent', message: 'a & b' });
    expect(html).toContain('<b>Name:</b> &lt;b&gt;x&lt;/b&gt;');
    expect(html).toContain('a &amp; b');
    expect(feedbackHtml({ message: 'm', category: 'bug', userEmail: null })).toContain('<b>Email:</b> Not provided');
    const cut = fitTelegram('x'.repeat(4093) + '&amp;&amp;', 4096);
    expect(cut.length).toBeLessThanOrEqual(4096);
    expect(cut).toMatch(/x…$/);
  });

  it('builds a MIME message that cannot be header-injected', () => {
    const mime = buildMime({ from: 'a@b.co', to: ['t@b.co'], subject: 'hi\r\nBcc: evil@x.co', text: 'é\n.\nend', replyTo: 'r@b.co\r\nX: y' });
    const headers = mime.split('\r\n\r\n')[0];
    expect(headers).not.toMatch(/^Bcc:/m);
    expect(headers).not.toMatch(/^X:/m);
    expect(Buffer.from(mime.split('\r\n\r\n')[1].replace(/\r\n/g, ''), 'base64').toString('utf8')).toBe('é\r\n.\r\nend');
  });
});
