import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type Page, expect } from '@playwright/test';

export const ADMIN_TOKEN = 'e2e-admin-token-0123456789';

/** A fresh tenant (its API key) and a console admin for it. */
export async function tenantWithAdmin(request: APIRequestContext, name: string) {
  const tenant = await request.post('/v1/admin/tenants', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, data: { name } });
  expect(tenant.status()).toBe(201);
  const { tenant_id, api_key } = (await tenant.json()).data;
  const email = `${name}-${Date.now()}@example.com`;
  const admin = await request.post(`/v1/admin/tenants/${tenant_id}/admins`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, data: { email } });
  expect(admin.status()).toBe(201);
  return { tenantId: tenant_id as string, apiKey: api_key as string, email };
}

/** Signs in through the login page with the code from the development mailbox. */
export async function signIn(page: Page, email: string) {
  await page.goto('/console/login');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'Send sign-in code' }).click();
  await expect(page.getByRole('status')).toContainText('sign-in code is on its way');
  await enterMailedCode(page, email, /Your sign-in code is (\d{6})/);
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
}

/** Reads the newest code mailed to `email` from the development mailbox and submits it on `page`. */
export async function enterMailedCode(page: Page, email: string, pattern: RegExp) {
  const mailbox = await page.context().newPage();
  await mailbox.goto('/dev/mailbox');
  const code = pattern.exec(await mailbox.getByRole('article', { name: `Message to ${email}` }).first().innerText())?.[1];
  await mailbox.close();
  await page.getByLabel('Sign-in code').fill(code as string);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in to the passport on a page showing the consent app's sign-in form (/connect, /passport). */
export async function passportSignIn(page: Page, email: string) {
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'Send sign-in code' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'sign-in code is on its way' })).toBeVisible();
  await enterMailedCode(page, email, /Your passport sign-in code is (\d{6})/);
}

/**
 * Where a test's screenshot goes: test-results/screenshots (ignored by git), so a test run leaves the tree clean.
 * `npm run -w @memory/e2e screenshots` runs the suite with E2E_SCREENSHOT_DIR=../docs/screenshots to refresh the
 * pictures in the docs.
 */
export const screenshotPath = (name: string) => `${process.env.E2E_SCREENSHOT_DIR ?? 'test-results/screenshots'}/${name}`;

/** Phone and desktop widths every console page is checked at. */
export const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/**
 * axe-core on the page as it is now: no serious or critical violation of any rule axe runs by default (WCAG 2.x
 * A/AA and best practices). The failure lists each rule with the first elements it flagged.
 */
export async function expectAccessible(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  expect(bad, `axe violations on ${where}`).toEqual([]);
}

/** Nothing wider than the viewport: the page never scrolls sideways (wide tables scroll inside their own box). */
export async function expectNoHorizontalOverflow(page: Page, where: string) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll, `page width on ${where}`).toBeLessThanOrEqual(client);
}

/** Adds one user message for `user` (with an optional `source` block) and waits until its job completed. */
export async function addAndWait(request: APIRequestContext, key: string, user: string, content: string, source?: Record<string, unknown>) {
  const headers = { authorization: `ApiKey ${key}` };
  const res = await request.post('/v1/memories/add', { headers, data: { external_user_id: user, messages: [{ role: 'user', content }], ...(source ? { source } : {}) } });
  expect(res.status()).toBe(200);
  const { job_id } = await res.json();
  await expect.poll(async () => (await (await request.get(`/v1/memories/jobs/${job_id}`, { headers })).json()).data.status).toBe('completed');
}
