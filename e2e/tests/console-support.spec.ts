import { type APIRequestContext, expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { signIn, tenantWithAdmin, screenshotPath } from './support';

interface Session {
  event_id: string;
  observed_at: string;
  scope: Record<string, unknown>;
  messages: unknown[];
}
const FIXTURE = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../tests/fixtures/support-conversations.json'), 'utf8')) as {
  customers: Array<{ external_user_id: string; sessions: Session[] }>;
};

/** The fixture's conversations moved in time so the latest was yesterday: the dashboard's default window shows them. */
function recentSessions() {
  const latest = Math.max(...FIXTURE.customers.flatMap((c) => c.sessions.map((s) => Date.parse(s.observed_at))));
  const shift = Date.now() - 86_400_000 - latest;
  return FIXTURE.customers.flatMap((c) =>
    c.sessions.map((s) => ({ user: c.external_user_id, ...s, observed_at: new Date(Date.parse(s.observed_at) + shift).toISOString() })),
  );
}

async function send(request: APIRequestContext, key: string) {
  const headers = { authorization: `ApiKey ${key}` };
  expect((await request.patch('/v1/tenant/domain-schema', { headers, data: { domain_schema: 'customer_support' } })).status()).toBe(200);
  const writer = await request.post('/v1/tenant/service-writers', {
    headers,
    data: { service_key: 'helpdesk', display_name: 'Helpdesk', authority_rules: { default_priority: 50, categories: {} } },
  });
  expect(writer.status()).toBe(201);
  for (const s of recentSessions()) {
    const res = await request.post('/v1/memories/add', {
      headers,
      data: {
        external_user_id: s.user,
        messages: s.messages,
        source: { service: 'helpdesk', event_id: s.event_id, observed_at: s.observed_at, scope: s.scope },
      },
    });
    expect(res.status()).toBe(200);
    const { job_id } = await res.json();
    await expect.poll(async () => (await (await request.get(`/v1/memories/jobs/${job_id}`, { headers })).json()).data.status).toBe('completed');
  }
}

test('a support lead filters the customers, opens a profile and reads the support dashboard with its chart', async ({ page, request }) => {
  const { apiKey, email } = await tenantWithAdmin(request, 'e2e-support');
  await send(request, apiKey);

  await signIn(page, email);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Customers' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Active:' })).toContainText('Customer Support Schema');
  const table = page.getByRole('table', { name: 'Customers' });
  await expect(table.getByRole('row')).toHaveCount(3); // header + 2 customers
  await expect(page.getByRole('status').filter({ hasText: 'match' })).toHaveText('2 customers match');

  await page.getByLabel('Escalated').selectOption('true');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'match' })).toHaveText('1 customer match');
  await expect(table).toContainText('cust_dana');
  await expect(table).toContainText('Business plan');
  await expect(table).not.toContainText('cust_omar');

  await table.getByRole('button', { name: 'cust_dana' }).click();
  const profile = page.getByRole('region', { name: 'Customer profile' });
  await expect(profile).toContainText('Business plan');
  await expect(profile).toContainText("The user was charged twice for the user's March invoice");
  await expect(profile).toContainText('ticket 1002');
  await expect(profile).toContainText('The CSV export keeps failing with a timeout error');
  await expect(profile).toContainText('ticket status');
  await expect(profile).toContainText('email (stated)');
  await expect(profile).toContainText('declining');
  // the memories behind an entry are links to their pages, the full id in each link's name
  await expect(profile.getByRole('link', { name: /^Memory [0-9a-f-]{36}$/ }).first()).toHaveAttribute('href', /^\/console\/memories\/[0-9a-f-]{36}$/);
  await page.screenshot({ path: screenshotPath('console-customer-profile.png'), fullPage: true });

  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Support' }).click();
  const kpi = (name: string) => page.getByRole('group', { name, exact: true });
  await expect(kpi('Conversations')).toHaveText('Conversations5before: 0');
  await expect(kpi('Issues opened')).toHaveText('Issues opened3before: 0');
  await expect(kpi('Issues resolved')).toHaveText('Issues resolved1before: 0');
  await expect(kpi('Escalations')).toHaveText('Escalations1before: 0');
  await expect(kpi('Customers contacted')).toHaveText('Customers contacted2before: 0');
  const chart = page.getByRole('region', { name: 'Activity chart' });
  await expect(chart.locator('svg.recharts-surface').first()).toBeVisible();
  await expect(chart.locator('.recharts-bar-rectangle path').first()).toBeVisible();
  await expect(chart).toContainText('Issues opened');
  await expect(page.getByRole('region', { name: 'Breakdown' })).toContainText('chat 3');
  await page.screenshot({ path: screenshotPath('console-support-dashboard.png'), fullPage: true });

  // the last 7 days hold the fixture's 10 and 12 March (moved to now); the 7 days before, 3 to 5 March
  await page.getByLabel('Window').selectOption('7d');
  await expect(kpi('Conversations')).toHaveText('Conversations2before: 3');
});
