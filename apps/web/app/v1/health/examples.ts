/** Request examples of liveness and readiness (lib/operation-example.ts): neither takes input. */
import type { AreaExamples } from '@/lib/operation-example';
import type * as operations from './operations';

export const healthExamples: AreaExamples<typeof operations> = { health: {}, healthReady: {} };
