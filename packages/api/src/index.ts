/** The console's and the consent app's tRPC API (mounted by apps/web at /api/trpc). */
import { authRouter } from './routers/auth';
import { domainsRouter } from './routers/domains';
import { memoriesRouter } from './routers/memories';
import { overviewRouter } from './routers/overview';
import { passportRouter } from './routers/passport';
import { reviewsRouter } from './routers/reviews';
import { apiKeysRouter, tenantSettingsRouter, writersRouter } from './routers/settings';
import { sourceEventsRouter } from './routers/source-events';
import { usageRouter } from './routers/usage';
import { usersRouter } from './routers/users';
import { webhooksRouter } from './routers/webhooks';
import { router } from './trpc';

export const appRouter = router({
  auth: authRouter,
  overview: overviewRouter,
  reviews: reviewsRouter,
  sourceEvents: sourceEventsRouter,
  memories: memoriesRouter,
  users: usersRouter,
  domains: domainsRouter,
  usage: usageRouter,
  writers: writersRouter,
  apiKeys: apiKeysRouter,
  tenantSettings: tenantSettingsRouter,
  webhooks: webhooksRouter,
  /** The consent app (docs/passport.md): its own cookie session, never the console's. */
  passport: passportRouter,
});

export type AppRouter = typeof appRouter;
export { type ApiDeps, type Context, apiErrorOf, createContext } from './trpc';
