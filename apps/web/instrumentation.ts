/**
 * Runs once when the server starts: parse the configuration, open the database, apply migrations and
 * start the embedded job runner, so the first request does not pay for it and a bad config stops the start.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  if (process.env.NEXT_PHASE === 'phase-production-build') return;
  const { bootOrExit } = await import('./lib/runtime');
  await bootOrExit();
}
