/** The passport e2e tests' API steps: a tenant's agent and consent link, the agent's token exchange and universal calls. */
import { type APIRequestContext, expect } from '@playwright/test';
import { tenantWithAdmin } from './support';

/** A tenant, one of its global agents (no redirect: the consent page says "done") and a link token for `u-42`. */
export async function agentWithLink(request: APIRequestContext, name: string) {
  const { apiKey } = await tenantWithAdmin(request, `e2e-${name.toLowerCase().replace(/\W+/g, '-')}`);
  const created = await request.post('/v1/agents/global', {
    headers: { authorization: `ApiKey ${apiKey}` },
    data: {
      name,
      description: 'Plans your trips and remembers what you like.',
      website_url: 'https://trips.example',
      default_categories_requested: ['fact', 'preference'],
      redirect_uri: '',
    },
  });
  expect(created.status()).toBe(201);
  const agent = (await created.json()).data as { id: string; raw_agent_api_key: string };
  const link = await request.post('/v1/tenant/memory-passport/link-token', {
    headers: { authorization: `ApiKey ${apiKey}` },
    data: { agent_id: agent.id, external_user_id: 'u-42' },
  });
  expect(link.status()).toBe(201);
  const { link_token } = (await link.json()).data as { link_token: string };
  return { agentId: agent.id, agentKey: agent.raw_agent_api_key, linkToken: link_token, tenantKey: apiKey };
}

export const connectUrl = (agentId: string, linkToken: string) =>
  `/connect?agent_id=${encodeURIComponent(agentId)}&link_token=${encodeURIComponent(linkToken)}`;

export const exchange = (request: APIRequestContext, agentKey: string, linkToken: string) =>
  request.post('/v1/agents/passport-token', { headers: { authorization: `ApiKey ${agentKey}` }, data: { link_token: linkToken } });

export const universal = (agentKey: string, uui: string) => ({ authorization: `ApiKey ${agentKey}`, 'x-service-uui': uui });

export async function addUniversal(request: APIRequestContext, agentKey: string, uui: string, content: string) {
  const res = await request.post('/v1/universal/memories/add', {
    headers: universal(agentKey, uui),
    data: { messages: [{ role: 'user', content }] },
  });
  expect(res.status()).toBe(200);
  const { job_id } = await res.json();
  expect(job_id).toBeTruthy();
  const job = async () => (await (await request.get(`/v1/universal/memories/jobs/${job_id}`, { headers: universal(agentKey, uui) })).json()).data;
  await expect.poll(async () => ['queued', 'running'].includes((await job()).status)).toBe(false);
  return job() as Promise<{ status: string; memories_created: number; extraction_metadata: Record<string, unknown> }>;
}

export async function retrieveUniversal(request: APIRequestContext, agentKey: string, uui: string) {
  const res = await request.post('/v1/universal/memories/retrieve', {
    headers: universal(agentKey, uui),
    data: { query: 'what do you know about the user?' },
  });
  expect(res.status()).toBe(200);
  return res.json() as Promise<{
    data: { content: string; category: string }[];
    permission_error: string | null;
    clarification_question: string | null;
  }>;
}
