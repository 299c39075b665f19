import { expect, test } from '@playwright/test';

const ADMIN_TOKEN = 'e2e-admin-token-0123456789';

test('an admin signs in with an e-mailed code, sees the overview and creates an API key shown once', async ({ page, request }) => {
  const tenant = await request.post('/v1/admin/tenants', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, data: { name: 'e2e-console' } });
  expect(tenant.status()).toBe(201);
  const { tenant_id } = (await tenant.json()).data;
  const email = `admin-${Date.now()}@example.com`;
  const admin = await request.post(`/v1/admin/tenants/${tenant_id}/admins`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, data: { email } });
  expect(admin.status()).toBe(201);

  // not signed in: the console sends the browser to the sign-in page
  await page.goto('/console');
  await expect(page).toHaveURL(/\/console\/login$/);
  await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'Send sign-in code' }).click();
  await expect(page.getByRole('status')).toContainText('sign-in code is on its way');

  const mailbox = await page.context().newPage();
  await mailbox.goto('/dev/mailbox');
  const message = mailbox.getByRole('article', { name: `Message to ${email}` });
  await expect(message).toBeVisible();
  const code = /Your sign-in code is (\d{6})/.exec(await message.innerText())?.[1];
  expect(code).toMatch(/^\d{6}$/);
  await mailbox.close();

  await page.getByLabel('Sign-in code').fill(code as string);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/console$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByLabel('Active API keys: 1')).toBeVisible();
  await expect(page.getByLabel('Open reviews: 0')).toBeVisible();

  // the session cookie is HttpOnly: page scripts cannot read it
  expect(await page.evaluate(() => document.cookie)).not.toContain('memory_console_session');

  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await page.getByLabel('Key name').fill('e2e-service');
  await page.getByRole('button', { name: 'Create API key' }).click();
  const shown = page.getByLabel('New API key');
  await expect(shown).toHaveValue(/^mem_sk_[A-Za-z0-9_-]{43}$/);
  const key = await shown.inputValue();
  await expect(page.getByText('it is shown only once')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Revoke key e2e-service' })).toBeVisible();

  // the key works against the API, and is not shown again after a reload
  const check = await request.get('/v1/tenant/api-keys', { headers: { authorization: `ApiKey ${key}` } });
  expect(check.status()).toBe(200);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Revoke key e2e-service' })).toBeVisible();
  await expect(page.getByLabel('New API key')).toHaveCount(0);
  expect(await page.content()).not.toContain(key);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/console\/login$/);
  await page.goto('/console/settings');
  await expect(page).toHaveURL(/\/console\/login$/);
});

test('an address typed (or autofilled) before the page is interactive is the one the code is sent to', async ({ page, request }) => {
  const tenant = await request.post('/v1/admin/tenants', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, data: { name: 'e2e-console-early' } });
  const { tenant_id } = (await tenant.json()).data;
  const email = `early-${Date.now()}@example.com`;
  expect((await request.post(`/v1/admin/tenants/${tenant_id}/admins`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, data: { email } })).status()).toBe(201);

  // the page's scripts are held back until the address is in the field, as on a slow connection
  let release = () => {};
  const scripts = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/_next/static/**/*.js', async (route) => {
    await scripts;
    await route.continue();
  });
  await page.goto('/console/login', { waitUntil: 'domcontentloaded' });
  await page.getByLabel('E-mail address').fill(email);
  release();
  await page.waitForLoadState('networkidle');
  await page.getByRole('button', { name: 'Send sign-in code' }).click();
  await expect(page.getByRole('status')).toContainText('sign-in code is on its way');
});
