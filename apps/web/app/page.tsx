import Link from 'next/link';

export default function Home() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold">Memory Service</h1>
      <p className="mt-4 text-slate-600">
        Long-term memory for AI products. Send conversations to <code>/v1/memories/add</code>, get durable memories back
        from <code>/v1/memories/retrieve</code>.
      </p>
      <ul className="mt-8 space-y-2">
        <li>
          <Link className="text-blue-700 underline" href="/docs/api">
            API reference
          </Link>
        </li>
        <li>
          <a className="text-blue-700 underline" href="/v1/openapi.json">
            OpenAPI 3.1 document
          </a>
        </li>
      </ul>
    </main>
  );
}
