import { Errors, deletePassportMemory } from '@memory/core';
import { isUuid, requirePassport, respond, route } from '@/lib/http';

/** DELETE /v1/uui/me/memories/{memory_id}: erases one of the user's memories (another user's, or an unknown one, is 404). */
export const DELETE = route<{ memory_id: string }>(async (ctx) => {
  const me = await requirePassport(ctx);
  const memoryId = ctx.params.memory_id;
  if (!isUuid(memoryId)) throw Errors.notFound(`Memory ${memoryId}`);
  const deleted = await deletePassportMemory(ctx.rt.db, me.passportUserId, memoryId);
  ctx.log.info({ passport_user_id: me.passportUserId, memory_id: memoryId }, 'passport memory deleted');
  return respond(ctx, deleted);
});
