import { type APIRequestContext, expect, test } from '@playwright/test';
import { addAndWait, expectAccessible, signIn, tenantWithAdmin, screenshotPath } from './support';

const add = (request: APIRequestContext, key: string, content: string, source: Record<string, unknown>) => addAndWait(request, key, 'maria', content, source);

async function retrieve(request: APIRequestContext, key: string) {
  const res = await request.post('/v1/memories/retrieve', {
    headers: { authorization: `ApiKey ${key}` },
    data: { external_user_id: 'maria', query: 'where does the user live?' },
  });
  return res.json();
}

test('equally trusted writers disagree; an admin keeps one claim in the console and retrieve follows', async ({ page, request }) => {
  const { apiKey, email } = await tenantWithAdmin(request, 'e2e-review');
  for (const service of ['web', 'mobile']) {
    const w = await request.post('/v1/tenant/service-writers', {
      headers: { authorization: `ApiKey ${apiKey}` },
      data: { service_key: service, display_name: service, authority_rules: { default_priority: 40, categories: {} } },
    });
    expect(w.status()).toBe(201);
  }
  await add(request, apiKey, 'I live in Lisbon.', { service: 'web', event_id: 'w-1', observed_at: '2026-05-01T09:00:00Z' });
  await add(request, apiKey, 'I live in Porto.', { service: 'mobile', event_id: 'm-1', observed_at: '2026-05-01T18:00:00Z' });

  const before = await retrieve(request, apiKey);
  expect(before.clarification_question).toBe('Do you currently live in Lisbon or in Porto?');
  expect(before.data).toEqual([]);

  await signIn(page, email);
  await expect(page.getByLabel('Open reviews: 1')).toBeVisible();
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Reviews' }).click();
  await page.getByRole('link', { name: /Do you currently live in Lisbon or in Porto\?/ }).click();
  const claimB = page.getByRole('article', { name: 'Claim B' });
  await expect(claimB).toContainText('The user lives in Porto.');
  await expect(claimB).toContainText('mobile');
  await expect(page.getByRole('article', { name: 'Claim A' })).toContainText('The user lives in Lisbon.');
  // what was said behind each claim, from its source event
  await expect(claimB.getByRole('region', { name: 'What was said: Claim B' })).toContainText('I live in Porto.');
  await expect(page.getByRole('region', { name: 'What was said: Claim A' })).toContainText('I live in Lisbon.');
  await expectAccessible(page, 'an open conflict review');
  await page.screenshot({ path: screenshotPath('console-review-open.png'), fullPage: true });

  await page.getByLabel('Note (optional)').fill('Maria confirmed on the phone');
  await claimB.getByRole('button', { name: 'Keep this claim' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Resolved' })).toContainText('The user lives in Porto.');
  await page.screenshot({ path: screenshotPath('console-review-resolved.png'), fullPage: true });

  const after = await retrieve(request, apiKey);
  expect(after.clarification_question).toBeNull();
  expect(after.data.map((m: { content: string }) => m.content)).toEqual(['The user lives in Porto.']);

  // the ledger history of the archived claim, in the console
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Memories' }).click();
  await page.getByLabel('External user id').fill('maria');
  await page.getByRole('button', { name: 'Show memories' }).click();
  await page.getByRole('button', { name: /The user lives in Lisbon\./ }).click();
  const history = page.getByRole('list', { name: 'Ledger history' });
  await expect(history).toContainText('created');
  await expect(history).toContainText('review_opened');
  await expect(history).toContainText('review_resolved');
});
