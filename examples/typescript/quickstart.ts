/**
 * Quick start with the TypeScript client: add a conversation, wait for its extraction, retrieve the prompt block.
 *
 *   npx turbo run build --filter=@memory/client        # once: builds packages/client/dist
 *   export MEMORY_URL=http://localhost:3000 MEMORY_API_KEY=mem_sk_…   # the key the first `npm start` printed
 *   npx tsx examples/typescript/quickstart.ts          # MEMORY_USER picks the end user (default: alice)
 */
import { MemoryApiError, MemoryClient } from '@memory/client';

const baseUrl = process.env.MEMORY_URL ?? 'http://localhost:3000';
const apiKey = process.env.MEMORY_API_KEY;
const user = process.env.MEMORY_USER || 'alice';

async function main(): Promise<number> {
  if (!apiKey) {
    console.error('Set MEMORY_API_KEY to a tenant API key (mem_sk_…): the first `npm start` prints one.');
    return 2;
  }
  const memory = new MemoryClient({ baseUrl, apiKey });

  const { add, job } = await memory.memories.addAndWait({
    external_user_id: user,
    messages: [{ role: 'user', content: "I'm a vegetarian and I live in Lisbon. I'm training for a marathon in April." }],
  });
  console.log(`add: ${add.status}, job: ${job?.status ?? 'none'}, memories created: ${job?.memories_created ?? 0}`);

  const found = await memory.memories.retrieve({
    external_user_id: user,
    query: 'plan a vegetarian dinner for the user in Lisbon before the marathon',
  });
  console.log(found.system_prompt_addition);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof MemoryApiError) console.error(`memory service answered ${err.status} ${err.code}: ${err.message}`);
    else console.error(err);
    process.exit(1);
  },
);
