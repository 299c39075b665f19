/** A stored timestamp as the API writes it (ISO 8601, UTC), null when unknown: a leaf every serialiser uses. */
export const iso = (v: Date | string | null | undefined): string | null =>
  v == null ? null : (v instanceof Date ? v : new Date(v)).toISOString();
