import { describe, expect, it } from 'vitest';
import { runCorrection } from './correction';
import { runExtraction } from './extraction';
import { jobInngestEvent } from './inngest';
import { JOB_KINDS, jobBody } from './kinds';
import { runUniversalExtraction } from './universal';

describe('the job kinds', () => {
  it('give each kind its body, only in its own table', () => {
    expect(jobBody('extraction_jobs', 'extraction')).toBe(runExtraction);
    expect(jobBody('extraction_jobs', 'correction')).toBe(runCorrection);
    expect(jobBody('universal_jobs', 'universal')).toBe(runUniversalExtraction);
    expect(jobBody('extraction_jobs', 'universal')).toBeUndefined();
    expect(jobBody('universal_jobs', 'extraction')).toBeUndefined();
    expect(jobBody('extraction_jobs', 'toString')).toBeUndefined();
  });

  it('name one Inngest function and one event per kind, the event the queue sends', () => {
    const specs = Object.values(JOB_KINDS);
    expect(new Set(specs.map((s) => s.functionId)).size).toBe(specs.length);
    expect(new Set(specs.map((s) => s.event)).size).toBe(specs.length);
    const ids = { jobId: 'j1', tenantId: 't1', userId: 'u1' };
    expect(jobInngestEvent({ ...ids, kind: 'extraction' }).name).toBe(JOB_KINDS.extraction.event);
    expect(jobInngestEvent({ ...ids, kind: 'correction' })).toEqual({
      name: JOB_KINDS.correction.event,
      id: 'correction-j1',
      data: { job_id: 'j1', tenant_id: 't1', user_id: 'u1' },
    });
    expect(jobInngestEvent({ jobId: 'j2', kind: 'universal', passportUserId: 'p1' })).toEqual({
      name: JOB_KINDS.universal.event,
      id: 'universal-j2',
      data: { job_id: 'j2', passport_user_id: 'p1' },
    });
  });
});
