/** DELETE /v1/users/{external_user_id}: the erasure receipt (docs/erasure.md). */
import { z } from 'zod';
import { externalUserId } from './common';

export const eraseUserPathParams = z.object({ external_user_id: externalUserId });

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const erasureReceiptView = z
  .object({
    receipt_id: z.string().uuid().describe('Id of this erasure; the tombstone and the `user.erased` event carry it'),
    external_user_id_sha256: sha256.describe('SHA-256 (hex) of the erased `external_user_id`, UTF-8: the only trace of the id that is kept'),
    erased_at: z.string().datetime(),
    counts: z.record(z.string(), z.number().int()).describe('Records removed per kind, every kind of the erasure plan (docs/erasure.md)'),
    sha256: sha256.describe('SHA-256 (hex) of the canonical listing of the erased records: a line `<kind>:<id>\\n` per record, sorted'),
    erased: z
      .record(z.string(), z.array(z.string()))
      .nullable()
      .describe('The listing itself, ids per kind, sorted: keep it to verify `sha256`. Null when `already_erased` (it is not kept)'),
    already_erased: z.boolean().describe('True when nothing was left and this is the receipt of the earlier erasure of the same id'),
  })
  .meta({ id: 'ErasureReceipt' });

export type ErasureReceipt = z.infer<typeof erasureReceiptView>;
