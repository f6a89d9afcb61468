import type { Kysely } from 'kysely';
import type { Database, OutboxChannel, OutboxStatus } from '../../db/schema';
import { DomainError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { SupportConfig } from '../../config';
import { contactHtml, contactPlain, feedbackHtml, feedbackPlain, type ContactMessage, type FeedbackMessage } from './messages';
import { sendMail } from './smtp';
import { ForwardError, sendTelegram } from './telegram';

// The support outbox: store first, then forward through the configured channel and record the outcome.

export type { OutboxChannel, OutboxStatus } from '../../db/schema';

export const CONTACT_FAILURE = 'Failed to send message. Please try again later.';
export const FEEDBACK_FAILURE = 'Failed to send feedback. Please try again.';

type Table = 'contact_message' | 'feedback';

export class SupportOutbox {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly cfg: SupportConfig,
  ) {}

  get channel(): OutboxChannel | null {
    return this.cfg.telegram ? 'telegram' : this.cfg.smtp ? 'smtp' : null;
  }

  async submitContact(m: ContactMessage): Promise<{ id: string; status: OutboxStatus }> {
    const id = newId('msg_');
    await this.db
      .insertInto('contact_message')
      .values({
        id,
        name: m.name,
        email: m.email,
        subject: m.subject,
        inquiry_type: m.inquiryType,
        priority: m.priority,
        message: m.message,
        ...this.initial(),
      })
      .execute();
    return this.forward('contact_message', id, () => this.deliver(contactHtml(m), contactPlain(m)), CONTACT_FAILURE);
  }

  async submitFeedback(m: FeedbackMessage): Promise<{ id: string; status: OutboxStatus }> {
    const id = newId('fb_');
    await this.db
      .insertInto('feedback')
      .values({ id, message: m.message, category: m.category, user_email: m.userEmail, ...this.initial() })
      .execute();
    // Seed: feedback shows its own failure text, not the provider's description.
    return this.forward('feedback', id, () => this.deliver(feedbackHtml(m), feedbackPlain(m)), FEEDBACK_FAILURE, false);
  }

  private initial() {
    return {
      status: (this.channel ? 'pending' : 'not_configured') as OutboxStatus,
      channel: this.channel,
      attempts: 0,
      last_error: null,
      created_at: new Date().toISOString(),
      forwarded_at: null,
    };
  }

  private async deliver(html: string, plain: { subject: string; text: string; replyTo: string | null }) {
    if (this.cfg.telegram) return sendTelegram(this.cfg.telegram, html, this.cfg.forwardTimeoutMs);
    if (this.cfg.smtp) {
      return sendMail(
        this.cfg.smtp.url,
        { from: this.cfg.smtp.from, to: this.cfg.smtp.to.split(',').map((s) => s.trim()).filter(Boolean), ...plain },
        this.cfg.forwardTimeoutMs,
      );
    }
  }

  private async forward(table: Table, id: string, send: () => Promise<void>, fallback: string, showDescription = true) {
    // No channel: the database is the inbox, and the visitor's message has been received.
    if (!this.channel) return { id, status: 'not_configured' as const };
    try {
      await send();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await this.db
        .updateTable(table)
        .set((eb) => ({ status: 'failed', attempts: eb('attempts', '+', 1), last_error: message.slice(0, 1000) }))
        .where('id', '=', id)
        .execute();
      const description = err instanceof ForwardError ? err.providerDescription : null;
      throw new DomainError(err instanceof ForwardError && err.timedOut ? 'GATEWAY_TIMEOUT' : 'BAD_GATEWAY', showDescription && description ? description : fallback, { cause: err });
    }
    await this.db
      .updateTable(table)
      .set((eb) => ({ status: 'sent', attempts: eb('attempts', '+', 1), last_error: null, forwarded_at: new Date().toISOString() }))
      .where('id', '=', id)
      .execute();
    return { id, status: 'sent' as const };
  }
}
