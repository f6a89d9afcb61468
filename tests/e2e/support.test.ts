// Contact, feedback and the support chat against the real server (`npm start` on a temporary data
// dir, no forwarding configured): what a visitor sends lands in the database, the built-in assistant
// answers from the FAQ, and the server's refusal (its abuse limit) reaches the visitor as a toast.
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, watchErrors } from './helpers/browser';
import { describeE2E } from './helpers/e2e';

describeE2E('contact, feedback and support chat against the real server', {}, (e2e) => {
  function rows<T>(sql: string): T[] {
    const db = new Database(path.join(e2e.server.dataDir, 'attesta.sqlite'), { readonly: true });
    try {
      return db.prepare(sql).all() as T[];
    } finally {
      db.close();
    }
  }

  async function open(url: string): Promise<Page> {
    const page = await e2e.page();
    await page.goto(url);
    return page;
  }

  const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text });

  it('stores a contact message with its inquiry type and priority, then refuses a flood', { timeout: 90_000 }, async () => {
    const page = await open('/contact-us');
    const errors = watchErrors(page);
    await page.getByLabel('Name').fill('Grace Hopper');
    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByLabel('Subject').fill('Partnership');
    await page.getByLabel('Inquiry Type').click();
    await page.getByRole('option', { name: 'Partnership' }).click();
    await page.getByRole('radio', { name: 'Urgent' }).check();
    await page.getByLabel('Message').fill('We would like to issue our diplomas on Attesta.');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await toast(page, 'Message Sent').filter({ hasText: "Thank you for contacting us. We'll get back to you soon!" }).waitFor();
    await expect(page.getByLabel('Name').inputValue()).resolves.toBe('');

    const stored = rows<{ name: string; email: string; inquiry_type: string; priority: string; message: string; status: string }>(
      'select name, email, inquiry_type, priority, message, status from contact_message',
    );
    expect(stored).toEqual([
      {
        name: 'Grace Hopper',
        email: 'grace@example.com',
        inquiry_type: 'partnership',
        priority: 'urgent',
        message: 'We would like to issue our diplomas on Attesta.',
        status: 'not_configured', // stored in the outbox: no Telegram or SMTP on this server
      },
    ]);

    // The per-client limit (5 per 10 minutes): the sixth message is refused and says why.
    for (let i = 2; i <= 6; i++) {
      await page.getByLabel('Name').fill('Grace Hopper');
      await page.getByLabel('Email').fill('grace@example.com');
      await page.getByLabel('Message').fill(`Message ${i}`);
      await page.getByRole('button', { name: 'Send Message' }).click();
      if (i > 5) continue;
      // The row is written before the reply reaches the page, and the page clears the form on that
      // reply: wait for the cleared form (what the visitor sees) before filling it again.
      await expect.poll(() => page.getByLabel('Message').inputValue()).toBe('');
      expect(rows('select id from contact_message')).toHaveLength(i);
    }
    await toast(page, 'Too many messages. Please wait a few minutes and try again.').waitFor();
    expect(rows('select id from contact_message')).toHaveLength(5);
    await screenshot(page, 'support-contact-limited');
    expect(errors.filter((e) => !e.includes('429') && !e.includes('Too Many Requests'))).toEqual([]);
  });

  it('stores feedback sent from the panel', { timeout: 60_000 }, async () => {
    const page = await open('/faq');
    await page.getByTestId('feedback-launcher').click();
    const sheet = page.getByRole('dialog', { name: 'Send Feedback' });
    await sheet.waitFor();
    await sheet.getByRole('combobox').click();
    await page.getByRole('option', { name: 'Feature Request' }).click();
    await sheet.getByPlaceholder('Your feedback...').fill('Please add Ledger support');
    await sheet.getByPlaceholder('Your email (optional)').fill('lin@example.com');
    await sheet.getByRole('button', { name: 'Send Feedback' }).click();
    await toast(page, 'Thank you for your feedback!').waitFor();
    await sheet.waitFor({ state: 'detached' });
    expect(rows('select message, category, user_email from feedback')).toEqual([
      { message: 'Please add Ledger support', category: 'feature', user_email: 'lin@example.com' },
    ]);
  });

  it('answers a chat question from the FAQ with the built-in assistant', { timeout: 60_000 }, async () => {
    const page = await open('/');
    await page.getByRole('button', { name: /open support chat/i }).click();
    const chat = page.getByRole('dialog', { name: 'Support chat' });
    await chat.getByText("Hello! Welcome to the product's support. How can I help you today?").waitFor();
    const input = chat.getByPlaceholder('Type your message...');
    await input.fill('Which wallets can I use?');
    await input.press('Enter');
    const reply = chat.locator('[data-role="assistant"]').nth(1);
    await reply.waitFor({ timeout: 15_000 });
    await expect(reply.innerText()).resolves.toMatch(/Phantom/);
    await expect(chat.locator('[data-role="user"] [data-status]').first().getAttribute('data-status')).resolves.toBe('sent');
    await screenshot(page, 'support-chat-answer');
  });
});
