/**
 * `metadata_filter` (retrieve and list; docs/direct-operations.md): key → value equality on the `metadata` object
 * of the add or direct write that produced a memory or passage. Values are scalars, so the filter means exactly
 * "this top-level key holds this value" (a JSON containment test on the stored object).
 */
import { z } from 'zod';
import { LIMITS } from './limits';

const filterValue = z.union([
  z.string().max(LIMITS.metadataFilterValueChars, `must be at most ${LIMITS.metadataFilterValueChars} characters`),
  z.number(),
  z.boolean(),
]);

export const metadataFilter = z
  .record(z.string().min(1, 'keys must not be empty').max(LIMITS.metadataFilterKeyChars, `keys must be at most ${LIMITS.metadataFilterKeyChars} characters`), filterValue, {
    error: 'must be an object whose values are strings, numbers or booleans',
  })
  .refine((o) => Object.keys(o).length >= 1, 'must name at least one key')
  .refine((o) => Object.keys(o).length <= LIMITS.metadataFilterKeys, `at most ${LIMITS.metadataFilterKeys} keys`)
  .meta({
    id: 'MetadataFilter',
    description:
      'Only items produced by an add (or a direct write) whose `metadata` has every key here with exactly this value ' +
      '(strings, numbers and booleans; all keys must match). Items without such metadata are left out.',
    example: { channel: 'support', ticket: 4521 },
  });
export type MetadataFilter = z.infer<typeof metadataFilter>;

/** The list endpoint's form: the same object as JSON in one query parameter, e.g. `metadata_filter={"channel":"web"}` URL-encoded. */
export const metadataFilterQuery = z
  .string()
  .max(LIMITS.metadataFilterKeys * (LIMITS.metadataFilterKeyChars + LIMITS.metadataFilterValueChars + 8))
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object, e.g. {"channel":"web"}' });
      return z.NEVER;
    }
  })
  .pipe(metadataFilter)
  .meta({ description: 'A JSON object (URL-encoded) with the same meaning as retrieve’s `metadata_filter`, e.g. `{"channel":"web"}`.' });
