// The shared page content keeps the seed's structure (SEED-SPEC §2, §7) and its searches behave.
import { describe, expect, it } from 'vitest';
import { API_CATEGORIES, API_ENDPOINTS, filterApiEndpoints } from './api-endpoints';
import { DOCUMENTATION_SECTIONS, searchDocumentation } from './documentation';
import { FAQ_CATEGORIES, searchFaq } from './faq';
import { PRIVACY_POLICY_SECTIONS } from './privacy-policy';
import { contactInput, feedbackInput, chatInput } from '../schemas/support';

describe('FAQ', () => {
  it('has four categories of three questions', () => {
    expect(FAQ_CATEGORIES.map((c) => c.title)).toEqual(['General', 'Technical', 'Account & Wallet', 'NFTs & Storage']);
    expect(FAQ_CATEGORIES.every((c) => c.entries.length === 3)).toBe(true);
  });

  it('names the three supported wallets', () => {
    const text = JSON.stringify(FAQ_CATEGORIES);
    for (const wallet of ['Phantom', 'Solflare', 'Backpack']) expect(text).toContain(wallet);
  });

  it('searches questions and answers, case-insensitively', () => {
    expect(searchFaq('BACKPACK').flatMap((c) => c.entries.map((e) => e.id))).toEqual(['supported-wallets']);
    expect(searchFaq('revoked').flatMap((c) => c.entries.map((e) => e.id))).toContain('revocation');
    expect(searchFaq('  ')).toBe(FAQ_CATEGORIES);
    expect(searchFaq('no-such-words')).toEqual([]);
  });
});

describe('documentation', () => {
  it('has nine sections with unique ids', () => {
    expect(DOCUMENTATION_SECTIONS).toHaveLength(9);
    expect(new Set(DOCUMENTATION_SECTIONS.map((s) => s.id)).size).toBe(9);
  });

  it('searches every text of a section', () => {
    expect(searchDocumentation('record_verification').map((s) => s.id)).toEqual(['blockchain']);
    expect(searchDocumentation('nothing-like-this')).toEqual([]);
  });

  it('says what "verified" means: issuer-confirmed only with a proven domain, otherwise "Checked by Attesta only"; unreadable text stays pending', () => {
    const texts: string[] = [];
    JSON.stringify(DOCUMENTATION_SECTIONS, (_k, v) => (typeof v === 'string' && texts.push(v), v));
    const text = texts.join('\n');
    const issuerStep = texts.find((t) => t.startsWith('issuer_verification: ')) ?? '';
    expect(issuerStep).toBe(
      'issuer_verification: if an approved institution whose domain is proven issued or confirmed this hash with its own key, the tier is issuer-confirmed; otherwise the certificate is "Checked by Attesta only", not confirmed by the institution it names (which need not be registered).',
    );
    expect(text).not.toMatch(/the institution is an approved on-chain issuer|otherwise platform-verified/);
    expect(text).toContain('A document whose text could not be read is neither: it stays pending, with the reason, until the institution confirms it');
    // The CLI reads the chain alone: it cannot promise the server's verdict in every respect.
    expect(text).not.toContain('all give the same verdict');
    expect(text).toContain('it says that it does not check the institution\'s domain proof');
    const faq = FAQ_CATEGORIES.flatMap((c) => c.entries).find((e) => e.id === 'how-verification-works')!;
    expect(faq.answer).toContain('a document whose text could not be read is neither: it stays pending, with the reason, until the institution confirms it');
  });
});

describe('API endpoints', () => {
  it('lists the seed table', () => {
    expect(API_ENDPOINTS.map((e) => `${e.method} ${e.path}`)).toEqual([
      'POST /api/v1/auth/connect',
      'POST /api/v1/auth/disconnect',
      'GET /api/v1/certificates',
      'POST /api/v1/certificates',
      'GET /api/v1/certificates/{id}',
      'POST /api/v1/verify/{certificateId}',
      'GET /api/v1/verify/status/{certificateId}',
      'POST /api/v1/mint/{certificateId}',
    ]);
    expect(API_CATEGORIES.map((c) => c.label)).toEqual(['All', 'Authentication', 'Certificates', 'Verification', 'NFT Minting']);
  });

  it('filters by category and text', () => {
    expect(filterApiEndpoints('', 'auth')).toHaveLength(2);
    expect(filterApiEndpoints('status', 'all').map((e) => e.id)).toEqual(['verify-status']);
    expect(filterApiEndpoints('verify', 'nft')).toEqual([]);
  });
});

describe('privacy policy', () => {
  it('has eight sections', () => expect(PRIVACY_POLICY_SECTIONS).toHaveLength(8));
});

describe('support schemas', () => {
  it('applies the contact defaults and the seed messages', () => {
    expect(contactInput.parse({ name: ' Ada ', email: 'ada@example.com', message: 'Hi' })).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      subject: '',
      inquiryType: 'general',
      priority: 'normal',
      message: 'Hi',
    });
    const blank = contactInput.safeParse({ name: ' ', email: 'ada@example.com', message: 'Hi' });
    expect(blank.error?.issues[0]?.message).toBe('Please fill in all required fields');
    const bad = contactInput.safeParse({ name: 'Ada', email: 'ada@example', message: 'Hi' });
    expect(bad.error?.issues[0]?.message).toBe('Please enter a valid email address');
  });

  it('validates feedback and chat', () => {
    expect(feedbackInput.safeParse({ message: '   ' }).error?.issues[0]?.message).toBe('Please enter your feedback message');
    expect(feedbackInput.parse({ message: 'Nice', userEmail: '' })).toEqual({ message: 'Nice', category: 'other', userEmail: '' });
    expect(chatInput.safeParse({ messages: [{ role: 'system', content: 'x' }] }).success).toBe(false);
    expect(chatInput.safeParse({ messages: [{ role: 'user', content: 'hello' }] }).success).toBe(true);
  });
});
