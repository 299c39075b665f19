'use client';
/**
 * Ids as links to their console pages: a short form on screen (the first 8 characters, enough to tell ids apart
 * at a glance) and the full id in the accessible name and the tooltip, so a screen reader, a search and a copy
 * still get all of it.
 */
import Link from 'next/link';

export const memoryHref = (id: string) => `/console/memories/${id}`;
export const sourceEventHref = (id: string) => `/console/source-events/${id}`;
export const userMemoriesHref = (externalUserId: string) => `/console/memories?user=${encodeURIComponent(externalUserId)}`;
export const sourceEventsOfUserHref = (externalUserId: string) => `/console/source-events?user=${encodeURIComponent(externalUserId)}`;

export const shortId = (id: string) => (id.length > 12 ? `${id.slice(0, 8)}…` : id);

const linkClass = 'font-mono text-blue-800 underline hover:text-blue-950';

/** A link to an id's page, e.g. `<IdLink kind="Memory" id={m.id} href={memoryHref(m.id)} />`. */
export function IdLink({ kind, id, href }: { kind: string; id: string; href: string }) {
  return (
    <Link href={href} className={linkClass} title={id} aria-label={`${kind} ${id}`}>
      {shortId(id)}
    </Link>
  );
}

/** A user's external id (the tenant's own, so shown in full) linking to their memories. */
export function UserLink({ externalUserId }: { externalUserId: string }) {
  return (
    <Link href={userMemoriesHref(externalUserId)} className={`${linkClass} break-all`} aria-label={`Memories of user ${externalUserId}`}>
      {externalUserId}
    </Link>
  );
}

/** An id without a page of its own (a job, a writer, a webhook message): short on screen, whole in the tooltip. */
export function ShortId({ kind, id }: { kind: string; id: string }) {
  return (
    <span className="font-mono" title={id}>
      <span aria-hidden="true">{shortId(id)}</span>
      <span className="sr-only">
        {kind} {id}
      </span>
    </span>
  );
}

/** A list of ids as links, comma separated. */
export function IdLinks({ kind, ids, href }: { kind: string; ids: string[]; href: (id: string) => string }) {
  return (
    <>
      {ids.map((id, i) => (
        <span key={id}>
          {i > 0 ? ', ' : ''}
          <IdLink kind={kind} id={id} href={href(id)} />
        </span>
      ))}
    </>
  );
}

/** The memories and source events a profile entry was read from, as links. */
export function SourceIds({ memoryIds, eventIds }: { memoryIds: string[]; eventIds: string[] }) {
  if (memoryIds.length + eventIds.length === 0) return null;
  return (
    <span className="block text-xs text-slate-600">
      {memoryIds.length > 0 ? (
        <>
          {'memories '}
          <IdLinks kind="Memory" ids={memoryIds} href={memoryHref} />
        </>
      ) : null}
      {memoryIds.length > 0 && eventIds.length > 0 ? ' · ' : ''}
      {eventIds.length > 0 ? (
        <>
          {'source events '}
          <IdLinks kind="Source event" ids={eventIds} href={sourceEventHref} />
        </>
      ) : null}
    </span>
  );
}

/** A job's short id with its status (jobs have no console page; the event's page is where they are read). */
export function JobState({ id, status }: { id: string; status?: string | null }) {
  return (
    <>
      <ShortId kind="Job" id={id} />
      {status !== undefined ? ` (${status ?? 'unknown'})` : ''}
    </>
  );
}
