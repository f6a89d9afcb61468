import type { FeedbackCategory, InquiryType, ContactPriority } from '../../../../shared/content/support';
import { escapeHtml } from './telegram';

// The texts forwarded to the team (seed §7): contact = name, email, subject, type, priority, message;
// feedback = a category line, an e-mail line ('Not provided' when empty) and the message.

export interface ContactMessage {
  name: string;
  email: string;
  subject: string;
  inquiryType: InquiryType;
  priority: ContactPriority;
  message: string;
}

export interface FeedbackMessage {
  message: string;
  category: FeedbackCategory;
  userEmail: string | null;
}

export function contactHtml(m: ContactMessage): string {
  const e = escapeHtml;
  return [
    '<b>New Contact Form Submission</b>',
    '',
    `<b>Name:</b> ${e(m.name)}`,
    `<b>Email:</b> ${e(m.email)}`,
    `<b>Subject:</b> ${e(m.subject) || '(none)'}`,
    `<b>Type:</b> ${e(m.inquiryType)}`,
    `<b>Priority:</b> ${e(m.priority)}`,
    '',
    '<b>Message:</b>',
    e(m.message),
  ].join('\n');
}

export function feedbackHtml(m: FeedbackMessage): string {
  const e = escapeHtml;
  return [
    '<b>New Feedback</b>',
    '',
    `<b>Category:</b> ${e(m.category)}`,
    `<b>Email:</b> ${m.userEmail ? e(m.userEmail) : 'Not provided'}`,
    '',
    '<b>Message:</b>',
    e(m.message),
  ].join('\n');
}

export function contactPlain(m: ContactMessage): { subject: string; text: string; replyTo: string } {
  return {
    subject: `[Attesta contact] ${m.priority === 'urgent' ? '[URGENT] ' : ''}${m.subject || m.inquiryType}`,
    replyTo: m.email,
    text: [`Name: ${m.name}`, `Email: ${m.email}`, `Subject: ${m.subject}`, `Type: ${m.inquiryType}`, `Priority: ${m.priority}`, '', 'Message:', m.message].join('\n'),
  };
}

export function feedbackPlain(m: FeedbackMessage): { subject: string; text: string; replyTo: string | null } {
  return {
    subject: `[Attesta feedback] ${m.category}`,
    replyTo: m.userEmail,
    text: [`Category: ${m.category}`, `Email: ${m.userEmail || 'Not provided'}`, '', 'Message:', m.message].join('\n'),
  };
}
