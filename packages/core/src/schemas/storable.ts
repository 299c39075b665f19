/**
 * Text PostgreSQL cannot store: a NUL character (U+0000; `text` and `jsonb` refuse it) or an unpaired UTF-16
 * surrogate (no UTF-8 form). One rule for every string a request brings in — JSON bodies (keys and values),
 * query strings and path ids: 422 `validation_failed` naming the field (docs/api-choices.md, "Text that cannot
 * be stored"), checked where requests are parsed, before any handler sees them.
 */
import { Errors, type FieldError } from '../errors';

const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_TEXT_MESSAGE = 'must not contain a NUL character (U+0000) or an unpaired surrogate';

export const isStorableText = (s: string): boolean => !UNSTORABLE.test(s);

/** At most this many fields are named; a body made of nothing else needs no longer list. */
const MAX_REPORTED = 20;

/**
 * The fields of a parsed JSON value (or of a flat record of query or path parameters) holding text that cannot
 * be stored, as `path` strings like the schema errors' (`messages[0].content`; a bad object key is named by its
 * parent and the key's position). Empty when all text can be stored.
 */
export function unstorableTextErrors(value: unknown, root = ''): FieldError[] {
  const errors: FieldError[] = [];
  const visit = (v: unknown, path: string) => {
    if (errors.length >= MAX_REPORTED) return;
    if (typeof v === 'string') {
      if (!isStorableText(v)) errors.push({ path: path || '(body)', message: UNSTORABLE_TEXT_MESSAGE });
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((item, i) => visit(item, `${path}[${i}]`));
      return;
    }
    if (v !== null && typeof v === 'object') {
      let i = 0;
      for (const [key, item] of Object.entries(v)) {
        if (!isStorableText(key)) {
          if (errors.length < MAX_REPORTED) errors.push({ path: `${path || '(body)'}{key ${i}}`, message: `a key ${UNSTORABLE_TEXT_MESSAGE}` });
        } else visit(item, path ? `${path}.${key}` : key);
        i++;
      }
    }
  };
  visit(value, root);
  return errors;
}

/** The rule itself: throws 422 `validation_failed` naming every field whose text cannot be stored. */
export function assertStorableText(value: unknown): void {
  const errors = unstorableTextErrors(value);
  if (errors.length) throw Errors.validation(errors);
}
