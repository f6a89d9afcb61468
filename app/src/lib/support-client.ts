// The server's `support` router (chat, contact, feedback); inputs are the shared zod schemas in
// shared/schemas/support.ts, so the app and the server validate the same way.
import { trpcClient } from './trpc';

export const supportApi = trpcClient.support;
