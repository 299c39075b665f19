import { describe, expect, it, vi } from 'vitest';
import { guarded, ok } from './result';

const ctx = { requestId: () => '00000000-0000-4000-8000-000000000001', deps: {} };

describe('guarded', () => {
  it('answers text PostgreSQL cannot store with a 422 problem naming the field, before the handler runs', async () => {
    const run = vi.fn(async () => ok({ done: true }));
    const nul = await guarded(ctx, { external_user_id: 'u1', messages: [{ role: 'user', content: 'a\u0000b' }] }, run);
    expect(run).not.toHaveBeenCalled();
    expect(nul.isError).toBe(true);
    expect(nul.structuredContent).toMatchObject({ status: 422, code: 'validation_failed', errors: [{ path: 'messages[0].content' }] });
    const surrogate = await guarded(ctx, { query: '\uD800' }, run);
    expect(surrogate.structuredContent).toMatchObject({ code: 'validation_failed', errors: [{ path: 'query' }] });
    expect(run).not.toHaveBeenCalled();
  });

  it('runs the handler for storable arguments', async () => {
    const answer = await guarded(ctx, { query: 'where does the user live?' }, async () => ok({ done: true }));
    expect(answer.isError).toBeUndefined();
    expect(answer.structuredContent).toEqual({ done: true });
  });
});
