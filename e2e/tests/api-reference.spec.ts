import { expect, test } from '@playwright/test';

test('the API reference lists every endpoint with its fields and links the OpenAPI document', async ({ page }) => {
  await page.goto('/docs/api');
  await expect(page.getByRole('heading', { level: 1, name: 'Memory Service API' })).toBeVisible();
  for (const path of ['/v1/memories/add', '/v1/memories/retrieve', '/v1/memories/jobs/{job_id}', '/v1/users/me/export']) {
    await expect(page.getByRole('heading', { level: 2, name: new RegExp(path.replace(/[{}]/g, '.')) })).toBeVisible();
  }
  const retrieve = page.locator('#retrieveMemories');
  await expect(retrieve.getByRole('cell', { name: 'context_max_tokens', exact: true })).toBeVisible();
  await expect(retrieve.getByRole('cell', { name: 'external_user_id', exact: true }).first()).toBeVisible();

  await page.getByRole('link', { name: '/v1/openapi.json' }).first().click();
  await expect(page).toHaveURL(/\/v1\/openapi\.json$/);
  const doc = JSON.parse((await page.locator('body').innerText()).trim());
  expect(doc.openapi).toBe('3.1.0');
});

test('the home page links the reference', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'API reference' }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
});
