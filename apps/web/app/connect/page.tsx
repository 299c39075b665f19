/**
 * /connect?agent_id=…&link_token=… — the consent page a tenant sends its user to (docs/consent-app.md).
 * Rendered per request (the URL carries a single-use token: never cached, never framed; next.config.ts).
 */
import type { Metadata } from 'next';
import { PassportProviders } from '../passport/_lib/client';
import { ConnectView } from './connect-view';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Connect to your Memory Passport', robots: { index: false, follow: false } };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const one = (v: string | string[] | undefined) => (typeof v === 'string' ? v : '');

export default async function ConnectPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  return (
    <PassportProviders>
      <ConnectView agentId={one(params.agent_id)} linkToken={one(params.link_token)} />
    </PassportProviders>
  );
}
