import { apiKeyCreateInput, apiKeyIdInput } from '../../../shared/schemas/rest';
import { createApiKey, listApiKeys, revokeApiKey } from '../services/api-keys';
import { protectedProcedure, router } from '../trpc';

/** REST API keys of the signed-in user (profile page). The full key is returned once, by create. */
export const apiKeysRouter = router({
  create: protectedProcedure.input(apiKeyCreateInput).mutation(({ ctx, input }) => createApiKey(ctx.db, ctx.session.user.id, input.name)),
  list: protectedProcedure.query(({ ctx }) => listApiKeys(ctx.db, ctx.session.user.id)),
  revoke: protectedProcedure.input(apiKeyIdInput).mutation(({ ctx, input }) => revokeApiKey(ctx.db, ctx.session.user.id, input.id)),
});
