// The public information pages, the development notice, the support chat and the feedback panel in
// headless Chromium, against app/dist on a tiny static server with no API behind it (so /trpc is
// "unreachable" unless a test answers it with page.route).
import { beforeAll, expect, it } from 'vitest';
import type { BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { screenshot as saveScreenshot } from './helpers/browser';
import { seriousViolations } from './helpers/axe';
import { describeE2E } from './helpers/e2e';

/** Viewport screenshots by default: full-page captures of long pages cost seconds on a shared machine. */
const screenshot = (page: Page, name: string, fullPage = false) => saveScreenshot(page, name, { fullPage });

/** A canned tRPC batch answer for one mutation. */
const trpcOk = (data: unknown) => ({
  status: 200,
  contentType: 'application/json',
  body: JSON.stringify([{ result: { data } }]),
});

describeE2E('information pages, chat and feedback (browser)', { app: 'static' }, (e2e) => {
  let context: BrowserContext;

  beforeAll(async () => {
    // The development notice is tested on its own (a fresh context); here it is dismissed up front.
    context = await e2e.context({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'], dismissDevNotice: true });
  });

  async function open(url: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(url);
    await page.locator('main').first().waitFor();
    return page;
  }

  async function bodyText(page: Page) {
    return page.locator('body').innerText();
  }

  it('renders every information page with its seed content, free of serious axe violations', async () => {
    const expectations: Record<string, (string | RegExp)[]> = {
      '/': [
        'Features', 'Benefits', 'How It Works', 'Connect Wallet', /powered by Solana/i, 'Get Started', 'Learn More',
        'Connect Wallet', 'Upload Certificate', 'Mint as NFT', 'Share & Verify', 'Start Now',
      ],
      '/about-us': ['Our Mission', '10+', /certificates issued/i, '3+', /partner institutions/i, '99.9%', /verification success/i, '24/7', /support/i],
      '/contact-us': ['Send us a message', 'Contact Information', 'India', 'Live Chat Support', 'Monday to Friday, 9am - 5pm PST', 'Start Chat'],
      '/privacy-policy': [
        'Privacy Policy', 'Last updated: April 20, 2025', 'Information We Collect', 'How We Use Your Information',
        'Information Sharing', 'Data Security', 'Your Rights', 'Cookies', 'Changes to This Policy', 'Contact Us',
      ],
      '/terms-of-service': [
        'Terms of Service', 'Last updated: November 27, 2026', 'Your Certificates', 'What a Verification Result Means',
        'Checked by Attesta only', 'Records That Cannot Be Undone', 'Contact Us',
      ],
      '/faq': ['Frequently Asked Questions', 'General', 'Technical', 'Account & Wallet', 'NFTs & Storage'],
      '/documentation': ['Contents', 'Introduction', 'System Architecture', 'Blockchain Integration', 'Deployment & Monitoring'],
      '/api': [
        'API Documentation', 'All', 'Authentication', 'Certificates', 'Verification', 'NFT Minting', 'Get API Key',
        /active development/i, /released and open-sourced gradually/i,
      ],
    };
    const page = await context.newPage();
    const violations: Record<string, unknown> = {};
    for (const [url, texts] of Object.entries(expectations)) {
      await page.goto(url);
      await page.locator('main').first().waitFor();
      const text = await bodyText(page);
      for (const t of texts) {
        if (typeof t === 'string') expect(text, `${url}: ${t}`).toContain(t);
        else expect(text, `${url}: ${t}`).toMatch(t);
      }
      await screenshot(page, `info${url === '/' ? '-landing' : url.replace(/\//g, '-')}`, url === '/');
      const found = await seriousViolations(page);
      if (found.length) violations[url] = found;
      if (url === '/') {
        for (const href of ['/documentation', '/api', '/faq', '/about-us', '/contact-us', '/privacy-policy']) {
          await expect(page.locator(`footer a[href="${href}"]`).count()).resolves.toBe(1);
        }
        await expect(page.locator('header a[href="/login"]').first().isVisible()).resolves.toBe(true);
      }
      if (url === '/about-us') await expect(page.locator('main a[href="/login"]').count()).resolves.toBeGreaterThan(0);
      if (url === '/privacy-policy' || url === '/terms-of-service') await expect(page.locator('main a[href="/contact-us"]').count()).resolves.toBe(1);
      if (url === '/faq') {
        await expect(page.locator('[data-slot="accordion-trigger"]').count()).resolves.toBe(12);
        await expect(page.locator('main a[href="/contact-us"]').count()).resolves.toBe(1);
        await expect(page.locator('main a[href="/documentation"]').count()).resolves.toBe(1);
      }
      if (url === '/documentation') await expect(page.locator('nav[aria-label="Contents"] li').count()).resolves.toBe(9);
      if (url === '/api') {
        await expect(page.locator('[data-testid="api-endpoint"]').count()).resolves.toBe(8);
        await expect(page.getByRole('link', { name: 'Get API Key' }).getAttribute('href')).resolves.toBe('/profile');
      }
    }
    expect(violations).toEqual({});
    await page.close();
  });

  it('the login page links to the Terms of Service and the Privacy Policy, each a page of its own', async () => {
    const page = await open('/login');
    await page.getByRole('link', { name: 'Terms of Service' }).click();
    await page.waitForURL('**/terms-of-service');
    await page.getByRole('heading', { level: 1, name: 'Terms of Service' }).waitFor();
    await page.goBack();
    await page.getByRole('link', { name: 'Privacy Policy' }).click();
    await page.waitForURL('**/privacy-policy');
    await page.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor();
    await page.close();
  });

  it('FAQ search filters questions and answers', async () => {
    const page = await open('/faq');
    const search = page.getByRole('searchbox', { name: 'Search questions' });
    const triggers = page.locator('[data-slot="accordion-trigger"]');
    await search.fill('backpack'); // in a question's answer only
    await expect(triggers.allInnerTexts()).resolves.toEqual(['Which wallets are supported?']);
    await search.fill('revoked'); // "Can a certificate be revoked?" (question)
    await expect(triggers.allInnerTexts()).resolves.toContain('Can a certificate be revoked?');
    await search.fill('recovery phrase');
    await expect(triggers.allInnerTexts()).resolves.toEqual(['What happens if I lose access to my wallet?']);
    await expect(page.getByText('Keep your recovery phrase safe', { exact: false }).isVisible()).resolves.toBe(true);
    await search.fill('zzzz-nothing');
    await page.getByText('No questions match').waitFor();
    await page.getByRole('button', { name: 'Clear search' }).first().click();
    await expect(triggers.count()).resolves.toBe(12);
    await page.close();
  });

  it('documentation search filters the sections and their contents', async () => {
    const page = await open('/documentation');
    const entries = page.locator('nav[aria-label="Contents"] li');
    await page.getByRole('searchbox', { name: 'Search documentation' }).fill('LiteSVM');
    const titles = await entries.allInnerTexts();
    expect(titles.length).toBeGreaterThan(0);
    expect(titles.length).toBeLessThan(9);
    expect(titles).toContain('Blockchain Integration');
    await page.getByRole('searchbox', { name: 'Search documentation' }).fill('qqqq-nothing');
    await page.getByText('No sections match').waitFor();
    await page.close();
  });

  it('API docs filter by search and category, copy a path, and clear filters', async () => {
    const page = await open('/api');
    const cards = page.locator('[data-testid="api-endpoint"]');
    const search = page.getByRole('searchbox', { name: 'Search endpoints' });

    await page.getByRole('tab', { name: 'Authentication' }).click();
    await expect(cards.count()).resolves.toBe(2);
    await page.getByRole('tab', { name: 'All' }).click();
    await search.fill('verify');
    await expect(cards.count()).resolves.toBe(2);
    await page.getByRole('tab', { name: 'NFT Minting' }).click();
    await expect(cards.count()).resolves.toBe(0);
    await page.getByText('No endpoints found').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(cards.count()).resolves.toBe(8);
    await expect(page.getByRole('tab', { name: 'All' }).getAttribute('aria-selected')).resolves.toBe('true');

    // Clicking a path copies it; the toast lasts 2 s (sonner's default would be 4 s).
    await page.getByRole('button', { name: 'Copy /api/v1/certificates/{id}' }).click();
    const toast = page.locator('[data-sonner-toast]', { hasText: 'Copied to clipboard' });
    await toast.waitFor();
    const shownAt = Date.now();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe('/api/v1/certificates/{id}');
    await toast.waitFor({ state: 'detached', timeout: 3_800 });
    expect(Date.now() - shownAt).toBeLessThan(3_800);
    await page.close();
  });

  it('lists the endpoints of the served OpenAPI document when there is one', async () => {
    const page = await context.newPage();
    await page.route('**/api/openapi.json', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          openapi: '3.1.0',
          paths: {
            '/api/v1/certificates': {
              get: {
                summary: 'List certificates',
                responses: {
                  '200': {
                    content: {
                      'application/json': {
                        schema: { type: 'object', properties: { certificates: { type: 'array' } }, required: ['certificates'] },
                      },
                    },
                  },
                },
              },
            },
            '/api/v1/mint/{certificateId}': { post: { summary: 'Mint as NFT' } },
            '/health': { get: { summary: 'Not part of the public API' } },
          },
        }),
      }),
    );
    await page.goto('/api');
    const cards = page.locator('[data-testid="api-endpoint"]');
    await page.getByText('Mint as NFT', { exact: true }).first().waitFor();
    await expect(cards.count()).resolves.toBe(2);
    await page.getByRole('tab', { name: 'NFT Minting' }).click();
    await expect(cards.count()).resolves.toBe(1);
    await page.close();
  });

  it('uses the mobile layout of the API page at 640 px', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/api');
    await page.locator('[data-layout="mobile"]').waitFor();
    await screenshot(page, 'info-api-mobile');
    await page.goto('/');
    await page.locator('main').waitFor();
    await screenshot(page, 'info-landing-mobile');
    await page.close();
  });

  it('remembers a dismissed development notice across reloads', async () => {
    const fresh = await e2e.context();
    const page = await fresh.newPage();
    await page.goto('/about-us');
    const banner = page.getByRole('region', { name: 'Development notice' });
    await expect(banner.innerText()).resolves.toMatch(/v0\.0\.1.*unstable or incomplete/s);
    await page.getByRole('button', { name: 'Dismiss development notice' }).click();
    await banner.waitFor({ state: 'detached' });
    await page.reload();
    await page.locator('main').waitFor();
    await expect(banner.count()).resolves.toBe(0);
    await expect(page.evaluate(() => localStorage.getItem('dev-notification'))).resolves.toBeTruthy();
    await fresh.close();
  });

  it('shows the 404 page for an unknown path and logs the path', async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m: ConsoleMessage) => m.type() === 'error' && errors.push(m.text()));
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Oops! Page not found' }).waitFor();
    await expect(page.locator('main a[href="/"]').count()).resolves.toBe(1);
    expect(errors.some((e) => e.includes('/no/such/page'))).toBe(true);
    await screenshot(page, 'info-404');
    await page.close();
  });

  it('validates and sends the feedback form', async () => {
    const page = await open('/faq');
    await page.getByTestId('feedback-launcher').click();
    const sheet = page.getByRole('dialog', { name: 'Send Feedback' });
    await sheet.waitFor();
    await expect(sheet.getByRole('combobox').innerText()).resolves.toBe('Other');
    await expect(sheet.getByPlaceholder('Your email (optional)').count()).resolves.toBe(1);
    await sheet.getByRole('button', { name: 'Send Feedback' }).click();
    await page.locator('[data-sonner-toast]', { hasText: 'Please enter your feedback message' }).waitFor();
    await screenshot(page, 'info-feedback');

    // No server: the failure toast, and the panel stays open.
    await sheet.getByPlaceholder('Your feedback...').fill('The FAQ is great');
    await sheet.getByRole('button', { name: 'Send Feedback' }).click();
    await page.locator('[data-sonner-toast]', { hasText: 'Failed to send feedback. Please try again.' }).waitFor();
    await expect(sheet.isVisible()).resolves.toBe(true);

    // The server accepts: thanks, and the panel closes.
    let sent: unknown;
    await page.route('**/trpc/support.feedback**', async (route) => {
      sent = route.request().postDataJSON();
      await route.fulfill(trpcOk({ ok: true }));
    });
    await sheet.getByRole('button', { name: 'Send Feedback' }).click();
    await page.locator('[data-sonner-toast]', { hasText: 'Thank you for your feedback!' }).waitFor();
    await sheet.waitFor({ state: 'detached' });
    expect(JSON.stringify(sent)).toContain('The FAQ is great');
    await page.close();
  });

  it('validates the contact form with the seed toasts', async () => {
    const page = await open('/contact-us');
    const send = page.getByRole('button', { name: 'Send Message' });
    const toast = (text: string) => page.locator('[data-sonner-toast]', { hasText: text });

    await send.click();
    await toast('Validation Error').filter({ hasText: 'Please fill in all required fields' }).waitFor();

    await page.getByLabel('Name').fill('Grace Hopper');
    await page.getByLabel('Email').fill('grace-at-example');
    await page.getByLabel('Message').fill('Hello there');
    await send.click();
    await toast('Invalid Email').filter({ hasText: 'Please enter a valid email address' }).waitFor();

    await page.getByLabel('Email').fill('grace@example.com');
    await send.click();
    await toast('Failed to send message. Please try again later.').waitFor();

    await page.route('**/trpc/support.contact**', (route) => route.fulfill(trpcOk({ ok: true })));
    await send.click();
    await toast('Message Sent').filter({ hasText: "Thank you for contacting us. We'll get back to you soon!" }).waitFor();
    await expect(page.getByLabel('Name').inputValue()).resolves.toBe('');
    await screenshot(page, 'info-contact-sent');
    await page.close();
  });

  it('opens the chat with a greeting after 0.8 s and shows the error path with no server', async () => {
    const page = await open('/contact-us');
    const openedAt = Date.now();
    await page.getByRole('button', { name: 'Start Chat' }).click(); // the contact page opens our chat
    const chat = page.getByRole('dialog', { name: 'Support chat' });
    await chat.waitFor();
    const greeting = chat.getByText("Hello! Welcome to the product's support. How can I help you today?");
    await greeting.waitFor();
    expect(Date.now() - openedAt).toBeGreaterThanOrEqual(800);
    await expect(chat.getByText('Online').isVisible()).resolves.toBe(true);

    const input = chat.getByPlaceholder('Type your message...');
    await expect(input.evaluate((el) => el === document.activeElement)).resolves.toBe(true);

    // Five emojis; a pick lands in the input.
    await chat.getByRole('button', { name: 'Add emoji' }).click();
    const picker = page.locator('[data-slot="popover-content"]');
    await expect(picker.getByRole('button').count()).resolves.toBe(5);
    await picker.getByRole('button', { name: 'Thumbs up' }).click();
    await expect(input.inputValue()).resolves.toBe('👍');
    // Image attachments only; the preview can be removed.
    await expect(chat.locator('input[type="file"]').getAttribute('accept')).resolves.toBe('image/*');
    await chat.locator('input[type="file"]').setInputFiles({
      name: 'dot.png',
      mimeType: 'image/png',
      buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
    });
    await chat.getByAltText('Attachment preview').waitFor();
    await chat.getByRole('button', { name: 'Remove attachment' }).click();

    await input.fill('first line');
    await input.press('Shift+Enter');
    await expect(input.inputValue()).resolves.toBe('first line\n');
    // Record, in the page, that the input is disabled while the reply is awaited (a state that may be
    // shorter than a round trip to the test on a busy machine).
    await input.evaluate((el) => {
      const w = window as unknown as { wasDisabled: boolean };
      w.wasDisabled = false;
      new MutationObserver(() => {
        if ((el as HTMLTextAreaElement).disabled) w.wasDisabled = true;
      }).observe(el, { attributes: true });
    });
    await input.press('Enter');
    await chat.locator('[data-role="user"]').waitFor();
    await chat.getByRole('status', { name: 'Support is typing' }).waitFor();
    await chat.getByText('Sorry, there was an error processing your request. Please try again.').waitFor({ timeout: 6_000 });
    await expect(chat.locator('[data-status="error"]').innerText()).resolves.toContain('Failed to send');
    await expect(page.evaluate(() => (window as unknown as { wasDisabled: boolean }).wasDisabled)).resolves.toBe(true);
    await expect(input.isDisabled()).resolves.toBe(false);
    await screenshot(page, 'info-chat-error');
    await page.close();
  });

  it('raises the unread badge for replies that arrive while the chat is closed', async () => {
    const page = await open('/');
    let asked: { messages?: { role: string; content: string }[] } | undefined;
    // The reply is held until the chat is closed, so it surely arrives while closed.
    let closed!: () => void;
    const chatClosed = new Promise<void>((resolve) => (closed = resolve));
    await page.route('**/trpc/support.chat**', async (route) => {
      const body = route.request().postDataJSON() as Record<string, { messages: { role: string; content: string }[] }>;
      asked = body['0'] ?? (body as never);
      await chatClosed;
      await route.fulfill(trpcOk({ reply: 'Attesta anchors each certificate hash on Solana.' }));
    });
    const launcher = page.getByTestId('chat-launcher');
    await launcher.click();
    const chat = page.getByRole('dialog', { name: 'Support chat' });
    await chat.getByText("Hello! Welcome to the product's support.", { exact: false }).waitFor();

    // Minimise hides the conversation; expand brings it back.
    await chat.getByRole('button', { name: 'Minimize' }).click();
    await expect(chat.getByPlaceholder('Type your message...').count()).resolves.toBe(0);
    await chat.getByRole('button', { name: 'Expand' }).click();

    await chat.getByPlaceholder('Type your message...').fill('How does verification work?');
    await chat.getByRole('button', { name: 'Send' }).click();
    await chat.locator('[data-status="sent"]').waitFor();
    await chat.getByRole('button', { name: 'Close' }).click(); // close while the assistant is typing
    await chat.waitFor({ state: 'detached' });
    closed();
    await page.getByTestId('chat-unread').waitFor({ timeout: 6_000 });
    await expect(page.getByTestId('chat-unread').innerText()).resolves.toBe('1');
    expect(asked?.messages?.map((m) => m.role)).toEqual(['assistant', 'user']);
    expect(asked?.messages?.at(-1)?.content).toBe('How does verification work?');

    await launcher.click();
    await expect(page.getByTestId('chat-unread').count()).resolves.toBe(0);
    await chat.getByText('Attesta anchors each certificate hash on Solana.').waitFor();
    await screenshot(page, 'info-chat-reply');
    await page.close();
  });
});
