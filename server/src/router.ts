import { apiKeysRouter } from './routers/api-keys';
import { authRouter } from './routers/auth';
import { certificateRouter } from './routers/certificate';
import { explorerRouter } from './routers/explorer';
import { issuerRouter } from './routers/issuer';
import { mintRouter } from './routers/mint';
import { operatorRouter } from './routers/operator';
import { supportRouter } from './routers/support';
import { profileRouter } from './routers/profile';
import { publicRouter } from './routers/public';
import { publicProcedure, router } from './trpc';

export const appRouter = router({
  health: publicProcedure.query(() => ({ ok: true as const })),
  auth: authRouter,
  profile: profileRouter,
  certificate: certificateRouter,
  public: publicRouter,
  mint: mintRouter,
  support: supportRouter,
  apiKeys: apiKeysRouter,
  explorer: explorerRouter,
  issuer: issuerRouter,
  operator: operatorRouter,
});

export type AppRouter = typeof appRouter;
