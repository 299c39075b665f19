'use client';
/** Pending questions: filled in once the universal store (issue5-universal) lands its question functions. */
export function PendingQuestions() {
  return <p className="text-sm text-slate-600">No pending questions.</p>;
}
