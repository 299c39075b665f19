import { BuiltinExtractor, type ExtractionProvider, claimNextJob, recordFailure } from '@memory/core';
import { type Database, eq, extractionJobs } from '@memory/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExtraction } from './extraction';
import { EmbeddedRunner } from './runner';
import { type StepOptions, type StepRunner, embeddedSteps } from './steps';
import { openTestDatabase, queueConversation } from './test-support';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
}, 60_000);
afterAll(async () => database.close());

/** A provider that is not the built-in one (an LLM, say): its results cost something to get again. */
const paidProvider = (): ExtractionProvider & { calls: number } => {
  const builtin = new BuiltinExtractor();
  const p = {
    name: 'paid-model',
    calls: 0,
    async extract(input: Parameters<ExtractionProvider['extract']>[0]) {
      p.calls++;
      return builtin.extract(input);
    },
  };
  return p;
};

/** Records which steps ran and with which options, and runs them. */
function recordingSteps(): StepRunner & { seen: [string, StepOptions | undefined][] } {
  const seen: [string, StepOptions | undefined][] = [];
  return {
    seen,
    run: async <T>(id: string, fn: () => Promise<T> | T, opts?: StepOptions) => {
      seen.push([id, opts]);
      return fn();
    },
  };
}

describe('embedded steps', () => {
  it('replays a saved step, saves a finished one, and saves nothing for a step without a checkpoint', async () => {
    const saves: [string, unknown][] = [];
    const steps = embeddedSteps({ done: 'from before' }, async (id, value) => {
      saves.push([id, value]);
    });
    let ran = 0;
    expect(await steps.run('done', () => `ran ${++ran}`)).toBe('from before');
    expect(await steps.run('kept', () => ({ n: ++ran }))).toEqual({ n: 1 });
    expect(await steps.run('not-kept', () => ({ n: ++ran }), { checkpoint: false })).toEqual({ n: 2 });
    expect(saves).toEqual([['kept', { n: 1 }]]);
  });

  it('checkpoints only an extraction that costs something to repeat: never the load or the store', async () => {
    const builtin = recordingSteps();
    const a = await queueConversation(database, 'I live in Lisbon. I love jazz.');
    await runExtraction(a.jobId, builtin, { db: database.db, extractor: new BuiltinExtractor() });
    expect(builtin.seen.map(([id, o]) => [id, o?.checkpoint])).toEqual([
      ['load-conversation', false],
      ['extract-memories', false],
      ['store-memories', false],
    ]);

    const paid = recordingSteps();
    const b = await queueConversation(database, 'I live in Porto. I love fado.');
    await runExtraction(b.jobId, paid, { db: database.db, extractor: paidProvider() });
    expect(paid.seen.map(([id, o]) => [id, o?.checkpoint])).toEqual([
      ['load-conversation', false],
      ['extract-memories', true],
      ['store-memories', false],
    ]);
  });

  it('leaves no copy of the conversation or of what was extracted in a finished job row', async () => {
    const said = 'I keep bees in my garden in Tavira.';
    const { jobId } = await queueConversation(database, said);
    const provider = paidProvider();
    expect(await new EmbeddedRunner({ db: database.db, extractor: provider }, { pollMs: 20, leaseSeconds: 30, backoffBaseMs: 10 }).drain()).toBe(1);
    const [row] = await database.db.select().from(extractionJobs).where(eq(extractionJobs.id, jobId));
    expect(row).toMatchObject({ status: 'completed', stepState: {} });
    expect(JSON.stringify(row)).not.toContain('Tavira');
    expect(provider.calls).toBe(1);
  });

  it('keeps a checkpoint while a failed job will be retried, and drops it when the job ends dead', async () => {
    const { jobId } = await queueConversation(database, 'I run a pottery studio in Braga.');
    const stateOf = async () => (await database.db.select().from(extractionJobs).where(eq(extractionJobs.id, jobId)))[0]?.stepState;
    for (const attempt of [1, 2]) {
      const job = await claimNextJob(database.db, { workerId: 'w', leaseSeconds: 30, jobId });
      if (!job) throw new Error(`attempt ${attempt} was not claimed`);
      await database.db.update(extractionJobs).set({ stepState: { 'extract-memories': { said: 'Braga' } } }).where(eq(extractionJobs.id, jobId));
      const outcome = await recordFailure(database.db, { ...job, maxAttempts: 2 }, new Error('model timed out'), { backoffBaseMs: 0, lockedBy: 'w' });
      if (attempt === 1) {
        expect(outcome.status).toBe('queued');
        expect(await stateOf()).toEqual({ 'extract-memories': { said: 'Braga' } });
      } else {
        expect(outcome.status).toBe('dead');
        expect(await stateOf()).toEqual({});
      }
    }
  });
});
