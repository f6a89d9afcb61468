// Contact, feedback and chat constants without zod, so the browser's always-loaded widgets stay small.
// The zod schemas in shared/schemas/support.ts are built from these.

export const SUPPORT_MESSAGES = {
  requiredFields: 'Please fill in all required fields',
  invalidEmail: 'Please enter a valid email address',
  feedbackRequired: 'Please enter your feedback message',
} as const;

/** The seed's "simple pattern": text, @, text, dot, text. */
export const SIMPLE_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const inquiryTypes = ['general', 'support', 'partnership', 'billing'] as const;
export type InquiryType = (typeof inquiryTypes)[number];
export const contactPriorities = ['normal', 'urgent'] as const;
export type ContactPriority = (typeof contactPriorities)[number];

export interface ContactValues {
  name: string;
  email: string;
  subject: string;
  inquiryType: InquiryType;
  priority: ContactPriority;
  message: string;
}

export const contactDefaults: ContactValues = {
  name: '',
  email: '',
  subject: '',
  inquiryType: 'general',
  priority: 'normal',
  message: '',
};

export const feedbackCategories = ['bug', 'feature', 'other'] as const;
export type FeedbackCategory = (typeof feedbackCategories)[number];

export const feedbackCategoryLabels: Record<FeedbackCategory, string> = {
  bug: 'Report a Bug',
  feature: 'Feature Request',
  other: 'Other',
};

/** System messages stay in the browser; only user and assistant turns are sent (seed §7). */
export const chatRoles = ['user', 'assistant'] as const;
