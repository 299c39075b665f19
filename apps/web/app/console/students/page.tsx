'use client';
/**
 * Domain schema and the EdTech student profile of one end user (docs/domain-schemas.md): every entry with the
 * memories it was read from. Tenant-scoped by the console session like every console page.
 */
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { DomainGate, DomainSchema } from '../_lib/domain-schema';
import { SourceIds } from '../_lib/links';
import { ConsoleShell } from '../_lib/shell';
import { errorMessage, useTRPC } from '../_lib/trpc';
import { ErrorNote, Loading, buttonClass, inputClass, when } from '../_lib/ui';

const FIELDS = [
  ['level', 'Level'],
  ['subjects', 'Subjects'],
  ['learning_goals', 'Learning goals'],
  ['strengths', 'Strengths'],
  ['struggles', 'Struggles'],
  ['misconceptions', 'Misconceptions'],
  ['learning_style', 'Learning style'],
  ['pace', 'Pace'],
  ['accommodations', 'Accommodations'],
  ['exam_dates', 'Exam dates'],
] as const;

function Profile({ externalUserId }: { externalUserId: string }) {
  const trpc = useTRPC();
  const q = useQuery({ ...trpc.domains.studentProfile.queryOptions({ external_user_id: externalUserId }), retry: false });
  if (q.isPending) return <Loading />;
  if (q.error) return <ErrorNote error={errorMessage(q.error)} />;
  const p = q.data;
  return (
    <section aria-label="Student profile" className="rounded border border-slate-200 bg-white p-4">
      <h2 className="text-lg font-semibold">Student profile of “{p.external_user_id}”</h2>
      <p className="text-xs text-slate-500">
        Built from {p.memory_count} active memories · {when(p.generated_at)}
      </p>
      <dl className="mt-3 divide-y divide-slate-100">
        {FIELDS.map(([key, label]) => (
          <div key={key} className="grid grid-cols-[10rem_1fr] gap-2 py-2 text-sm">
            <dt className="text-slate-500">{label}</dt>
            <dd>
              {p[key].length === 0 ? (
                <span className="text-slate-500">—</span>
              ) : (
                <ul className="space-y-1">
                  {p[key].map((e) => (
                    <li key={e.value}>
                      <span className="text-slate-900">{e.value}</span>
                      {'date' in e && e.date ? <span className="ml-2 text-slate-600">({e.date})</span> : null}
                      <SourceIds memoryIds={e.memory_ids} eventIds={e.source_event_ids} />
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export default function StudentsPage() {
  const [input, setInput] = useState('');
  const [user, setUser] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (input.trim()) setUser(input.trim());
  };
  return (
    <ConsoleShell title="Student profile">
      <DomainSchema requires="edtech" />
      <DomainGate schema="edtech">
        <form onSubmit={submit} className="mt-6 flex flex-wrap items-end gap-2">
          <label className="block text-sm font-medium">
            External user id
            <input className={inputClass} required value={input} onChange={(e) => setInput(e.target.value)} />
          </label>
          <button type="submit" className={buttonClass}>
            Show profile
          </button>
        </form>
        <div className="mt-4">{user ? <Profile externalUserId={user} /> : <p className="text-slate-500">Enter a student’s external id.</p>}</div>
      </DomainGate>
    </ConsoleShell>
  );
}
