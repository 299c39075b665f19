/** A constant answer with no database work: liveness probe, and the bare baseline of `npm run bench:api`. */
export const dynamic = 'force-dynamic';

export function GET() {
  return Response.json({ status: 'ok' });
}
