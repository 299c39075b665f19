/** /passport — the signed-in home of a passport user (docs/consent-app.md); the sign-in form when signed out. */
import { PASSPORT_ACCESS_LOG_RETENTION } from '@memory/core';
import type { Metadata } from 'next';
import { PassportProviders } from './_lib/client';
import { PassportHome } from './passport-home';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Your Memory Passport', robots: { index: false, follow: false } };

export default function PassportPage() {
  return (
    <PassportProviders>
      <PassportHome retentionDays={PASSPORT_ACCESS_LOG_RETENTION.days} />
    </PassportProviders>
  );
}
