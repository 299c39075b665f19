import { expect, test } from '@playwright/test';
import { ADMIN_TOKEN, signIn, tenantWithAdmin, screenshotPath } from './support';

test('an admin sees the plan, the remaining budget, the quota mode and the daily usage chart', async ({ page, request }) => {
  const { tenantId, apiKey, email } = await tenantWithAdmin(request, 'e2e-usage');
  // a plan of 10 adds: 9 adds leave 10 % (DEGRADED_RETRIEVE)
  const plan = await request.put(`/v1/admin/tenants/${tenantId}/plan`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    data: { plan: 'free', overrides: { budgets: { add_calls: 10 } } },
  });
  expect(plan.status()).toBe(200);
  for (let i = 0; i < 9; i++) {
    const res = await request.post('/v1/memories/add', {
      headers: { authorization: `ApiKey ${apiKey}` },
      data: { external_user_id: `user-${i % 3}`, messages: [{ role: 'user', content: `I have ${i + 2} plants at home.` }] },
    });
    expect(res.status()).toBe(200);
  }
  const retrieve = await request.post('/v1/memories/retrieve', {
    headers: { authorization: `ApiKey ${apiKey}` },
    data: { external_user_id: 'user-0', query: 'plants' },
  });
  expect((await retrieve.json()).is_degraded).toBe(true);

  await signIn(page, email);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Usage' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible();
  const planCard = page.getByRole('region', { name: 'Plan' });
  await expect(planCard).toContainText('Plan: Free');
  await expect(planCard.getByLabel('Quota mode')).toHaveText('DEGRADED_RETRIEVE');
  await expect(planCard).toContainText('10 %');
  await expect(planCard).toContainText('degraded retrieve ≤ 20 %, passthrough ≤ 5 %, blocked at 0 %');
  await expect(planCard).toContainText('20 per user, 120 per tenant, per minute');
  const usage = page.getByRole('region', { name: 'Usage this period' });
  await expect(usage.getByRole('row', { name: /Add calls/ }).getByRole('cell')).toHaveText(['Add calls', '9', '10']);
  await expect(usage.getByRole('row', { name: /Retrieve calls/ }).getByRole('cell')).toHaveText(['Retrieve calls', '1', '10000']);
  // the chart draws today's bars
  const chart = usage.getByRole('figure', { name: 'Daily usage chart' });
  await expect(chart.locator('.recharts-bar-rectangle')).not.toHaveCount(0);
  await expect(chart).toContainText(new Date().toISOString().slice(5, 10));
  await page.screenshot({ path: screenshotPath('console-usage.png'), fullPage: true });
});
