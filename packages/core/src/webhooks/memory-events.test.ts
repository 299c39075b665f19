import { describe, expect, it } from 'vitest';
import { jobEvent, memoryChangeEvent } from './memory-events';

describe('memory webhook events from ledger entries', () => {
  const base = { memoryId: 'm1', userId: 'u1', jobId: 'j1' };

  it('maps created, archived and every other change', () => {
    expect(memoryChangeEvent({ ...base, action: 'created', from: null, to: 'active' }, 'alice')).toEqual({
      type: 'memory.created',
      data: { memory_id: 'm1', external_user_id: 'alice', change: 'created', status: 'active', previous_status: null, job_id: 'j1' },
    });
    expect(memoryChangeEvent({ ...base, action: 'deleted', from: 'active', to: 'archived' }, 'alice').type).toBe('memory.archived');
    expect(memoryChangeEvent({ ...base, action: 'review_resolved', from: 'inactive', to: 'archived', reviewId: 'r1' }, 'a').data).toMatchObject({
      review_id: 'r1',
    });
    expect(memoryChangeEvent({ ...base, action: 'superseded', from: 'active', to: 'inactive' }, 'a').type).toBe('memory.updated');
    expect(memoryChangeEvent({ ...base, action: 'reinforced', from: 'active', to: 'active' }, 'a').type).toBe('memory.updated');
  });

  it('says when a memory is held for review before write, approved or rejected', () => {
    expect(memoryChangeEvent({ ...base, action: 'created', from: null, to: 'pending', reviewId: 'r1' }, 'a')).toMatchObject({
      type: 'memory.pending',
      data: { status: 'pending', review_id: 'r1' },
    });
    expect(memoryChangeEvent({ ...base, action: 'approved', from: 'pending', to: 'active' }, 'a').type).toBe('memory.approved');
    // approved, but it lost a conflict: still the approval is what happened
    expect(memoryChangeEvent({ ...base, action: 'approved', from: 'pending', to: 'inactive' }, 'a').type).toBe('memory.approved');
    expect(memoryChangeEvent({ ...base, action: 'rejected', from: 'pending', to: 'archived' }, 'a').type).toBe('memory.rejected');
    expect(memoryChangeEvent({ ...base, action: 'edited', from: 'pending', to: 'pending' }, 'a').type).toBe('memory.updated');
  });

  it('reports a finished job as completed and a failed or dead one as failed, without content', () => {
    const job = { id: 'j1', kind: 'extraction', userId: 'u1', sourceEventId: 's1', attempts: 1 };
    const ids = new Map([['u1', 'alice']]);
    expect(jobEvent(job, { status: 'completed', memories_created: 2 }, ids)).toMatchObject({
      type: 'job.completed',
      data: { external_user_id: 'alice', memories_created: 2, memories_reinforced: 0 },
    });
    expect(jobEvent(job, { status: 'dead', error_summary: 'gave up' }, ids)).toMatchObject({ type: 'job.failed', data: { status: 'dead' } });
  });
});
