import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { ConsoleProviders } from './_lib/trpc';

export const metadata: Metadata = { title: 'Memory console', robots: { index: false } };

export default function ConsoleLayout({ children }: { children: ReactNode }) {
  return <ConsoleProviders>{children}</ConsoleProviders>;
}
