import { exportPassport } from '@memory/core';
import { json, requirePassport, route } from '@/lib/http';

/** GET /v1/uui/me/export: the passport's export bundle as a JSON attachment (docs/passport.md, "Export"). */
export const GET = route(async (ctx) => {
  const me = await requirePassport(ctx);
  const bundle = await exportPassport(ctx.rt.db, me.passportUserId);
  // the request id and counts only: the bundle is the user's data
  ctx.log.info({ passport_user_id: me.passportUserId, memories: bundle.memories.length }, 'passport exported');
  return json(bundle, {
    headers: {
      'Content-Disposition': 'attachment; filename="memory-passport-export.json"',
      'Cache-Control': 'no-store',
    },
  });
});
