/**
 * The step contract shared by both execution modes. Inngest's `step.run` memoises results on the
 * Inngest server; the embedded runner memoises them in the job row's `step_state`. Either way a retried
 * run skips the steps that already finished, and results are plain JSON.
 */
export interface StepRunner {
  run<T>(id: string, fn: () => Promise<T> | T): Promise<T>;
}

export const toJson = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));
