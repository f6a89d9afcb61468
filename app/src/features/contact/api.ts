import { TRPCClientError } from '@trpc/client';
import type { ContactInput } from '../../../../shared/schemas/support';
import { supportApi } from '../../lib/support-client';

export const CONTACT_FAILURE = 'Failed to send message. Please try again later.';

/** Sends the contact form to the server (`support.contact`), which forwards it with its own credentials. */
export function sendContactMessage(input: ContactInput) {
  return supportApi.contact.mutate(input);
}

/** The server's message when it answered with a tRPC error, else the seed's fallback text. */
export function contactErrorMessage(error: unknown): string {
  // Only a real tRPC error response has a shape; network failures and proxies' pages do not.
  if (error instanceof TRPCClientError && error.shape && typeof error.message === 'string' && error.message) {
    return error.message;
  }
  return CONTACT_FAILURE;
}
