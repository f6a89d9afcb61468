// Typed access to the server's `support` router (chat, contact, feedback). The inputs and outputs are
// the shared zod schemas, so this stays correct whatever the router's inferred types are; it also lets
// the app build and typecheck before the server's `support` router is registered.
import type { ChatInput, ChatOutput, ContactInput, FeedbackInput } from '../../../shared/schemas/support';
import { trpcClient } from './trpc';

interface Mutation<I, O> {
  mutate: (input: I) => Promise<O>;
}

export interface SupportApi {
  chat: Mutation<ChatInput, ChatOutput>;
  contact: Mutation<ContactInput, unknown>;
  feedback: Mutation<FeedbackInput, unknown>;
}

export const supportApi = (trpcClient as unknown as { support: SupportApi }).support;
