import { describe, expect, it } from 'vitest';
import { estimateBacklog } from './backlog';

const sample = (depth: number, finishedInWindow: number, oldestWaitSeconds = 0) => ({ depth, finishedInWindow, rateWindowSeconds: 300, oldestWaitSeconds });

describe('backlog ETA', () => {
  it('is normal with an empty queue', () => {
    expect(estimateBacklog(sample(0, 0, 0), 60)).toEqual({ processing_status: 'normal', processing_eta_seconds: null });
  });

  it('divides the depth by the measured rate and is delayed over the threshold', () => {
    // 150 jobs finished in 300 s = 0.5 jobs/s; 100 queued = 200 s
    expect(estimateBacklog(sample(100, 150), 60)).toEqual({ processing_status: 'delayed', processing_eta_seconds: 200 });
    // 30 queued = 60 s: not over the threshold
    expect(estimateBacklog(sample(30, 150), 60)).toEqual({ processing_status: 'normal', processing_eta_seconds: null });
    expect(estimateBacklog(sample(31, 150), 60)).toEqual({ processing_status: 'delayed', processing_eta_seconds: 62 });
    // rounds up: 7 queued at 2 jobs/s = 3.5 s
    expect(estimateBacklog(sample(7, 600), 0)).toEqual({ processing_status: 'delayed', processing_eta_seconds: 4 });
  });

  it('without a measured rate, is delayed (ETA unknown) only once the oldest job has waited past the threshold', () => {
    expect(estimateBacklog(sample(5, 0, 10), 60)).toEqual({ processing_status: 'normal', processing_eta_seconds: null });
    expect(estimateBacklog(sample(5, 0, 61), 60)).toEqual({ processing_status: 'delayed', processing_eta_seconds: null });
  });
});
