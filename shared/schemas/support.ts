import { z } from 'zod';
import {
  chatRoles,
  contactPriorities,
  feedbackCategories,
  inquiryTypes,
  SIMPLE_EMAIL_PATTERN,
  SUPPORT_MESSAGES,
} from '../content/support';

// Contact, feedback and support chat: the seed's validation rules and messages, word for word (SEED-SPEC §5).
// Used by the server as the inputs of `support.*`; the browser's widgets check the same rules with the
// zod-free constants in shared/content/support.ts.
export {
  chatRoles,
  contactDefaults,
  contactPriorities,
  feedbackCategories,
  feedbackCategoryLabels,
  inquiryTypes,
  SIMPLE_EMAIL_PATTERN,
  SUPPORT_MESSAGES,
  type ContactValues,
  type FeedbackCategory,
} from '../content/support';

const email = (max = 320) =>
  z.string().trim().max(max).regex(SIMPLE_EMAIL_PATTERN, { error: SUPPORT_MESSAGES.invalidEmail });

export const contactInput = z.object({
  name: z.string().trim().min(1, { error: SUPPORT_MESSAGES.requiredFields }).max(200),
  email: z.string().trim().min(1, { error: SUPPORT_MESSAGES.requiredFields }).pipe(email()),
  // Marked required in the interface but not enforced (seed §5).
  subject: z.string().trim().max(300).default(''),
  inquiryType: z.enum(inquiryTypes).default('general'),
  priority: z.enum(contactPriorities).default('normal'),
  message: z.string().trim().min(1, { error: SUPPORT_MESSAGES.requiredFields }).max(10_000),
});
export type ContactInput = z.input<typeof contactInput>;

export const feedbackInput = z.object({
  message: z.string().trim().min(1, { error: SUPPORT_MESSAGES.feedbackRequired }).max(10_000),
  category: z.enum(feedbackCategories).default('other'),
  // Optional; an empty string means "not provided".
  userEmail: z.union([z.literal(''), email()]).optional(),
});
export type FeedbackInput = z.input<typeof feedbackInput>;

export const chatMessage = z.object({
  role: z.enum(chatRoles),
  content: z.string().max(8_000),
});
export type ChatMessageInput = z.infer<typeof chatMessage>;

export const chatInput = z.object({
  messages: z.array(chatMessage).min(1).max(50),
});
export type ChatInput = z.infer<typeof chatInput>;

export const chatOutput = z.object({
  reply: z.string(),
});
export type ChatOutput = z.infer<typeof chatOutput>;
