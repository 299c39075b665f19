/**
 * Every console page at desktop and phone widths: axe-core finds no serious or critical violation, and at 390 px
 * nothing scrolls sideways. Then an operator's errand on a phone: find a user, read what was said, archive a memory
 * and delete it permanently; an edit and an erasure with its receipt; and the key shown once goes to the clipboard
 * with one button.
 */
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { WIDTHS, expectAccessible, expectNoHorizontalOverflow, signIn, tenantWithAdmin } from './support';

async function add(request: APIRequestContext, key: string, user: string, content: string, source?: Record<string, unknown>) {
  const res = await request.post('/v1/memories/add', {
    headers: { authorization: `ApiKey ${key}` },
    data: { external_user_id: user, messages: [{ role: 'user', content }], ...(source ? { source } : {}) },
  });
  expect(res.status()).toBe(200);
  const { job_id } = await res.json();
  await expect
    .poll(async () => (await (await request.get(`/v1/memories/jobs/${job_id}`, { headers: { authorization: `ApiKey ${key}` } })).json()).data.status)
    .toBe('completed');
}

async function get(request: APIRequestContext, key: string, path: string) {
  const res = await request.get(path, { headers: { authorization: `ApiKey ${key}` } });
  expect(res.status(), path).toBe(200);
  return (await res.json()).data;
}

/** A tenant with two users, a conflict under review, and the ids of the pages behind them. */
async function tenantWithData(request: APIRequestContext, name: string) {
  const t = await tenantWithAdmin(request, name);
  for (const service of ['web', 'mobile']) {
    const w = await request.post('/v1/tenant/service-writers', {
      headers: { authorization: `ApiKey ${t.apiKey}` },
      data: { service_key: service, display_name: service, authority_rules: { default_priority: 40, categories: {} } },
    });
    expect(w.status()).toBe(201);
  }
  await add(request, t.apiKey, 'maria', 'I live in Lisbon.', { service: 'web', event_id: 'w-1', observed_at: '2026-05-01T09:00:00Z' });
  await add(request, t.apiKey, 'maria', 'I live in Porto.', { service: 'mobile', event_id: 'm-1', observed_at: '2026-05-01T18:00:00Z' });
  await add(request, t.apiKey, 'oskar-lindqvist', 'I am allergic to peanuts and I work as a pharmacist.');
  const reviews = await get(request, t.apiKey, '/v1/tenant/reviews');
  const events = await get(request, t.apiKey, '/v1/tenant/source-events?external_user_id=oskar-lindqvist');
  const memories = await get(request, t.apiKey, '/v1/memories?external_user_id=oskar-lindqvist');
  return { ...t, reviewId: reviews.items[0].id as string, eventId: events.items[0].id as string, memoryId: memories.items[0].id as string };
}

/** Opens `path` and waits until its data has loaded (no "Loading…" left). */
async function open(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('Loading…')).toHaveCount(0);
}

test('every console page passes axe (no serious or critical) and fits a 390 px phone', async ({ page, request, browser }) => {
  // about 40 page loads, each with an axe run
  test.setTimeout(300_000);
  const t = await tenantWithData(request, 'e2e-walk');
  const pages = [
    '/console',
    '/console/reviews',
    `/console/reviews/${t.reviewId}`,
    '/console/source-events',
    `/console/source-events/${t.eventId}`,
    '/console/users',
    '/console/memories?user=oskar-lindqvist',
    `/console/memories/${t.memoryId}`,
    '/console/students',
    '/console/customers',
    '/console/support',
    '/console/usage',
    '/console/webhooks',
    '/console/settings',
  ];
  await signIn(page, t.email);
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const path of pages) {
      await open(page, path);
      await expectAccessible(page, `${path} at ${size.width} px`);
      if (size.name === 'phone') await expectNoHorizontalOverflow(page, `${path} at ${size.width} px`);
    }
    // the domain pages with their schema on
    for (const [schema, paths] of [
      ['customer_support', ['/console/customers', '/console/support']],
      ['edtech', ['/console/students']],
    ] as const) {
      const res = await request.patch('/v1/tenant/domain-schema', { headers: { authorization: `ApiKey ${t.apiKey}` }, data: { domain_schema: schema } });
      expect(res.status()).toBe(200);
      for (const path of paths) {
        await open(page, path);
        await expectAccessible(page, `${path} (${schema}) at ${size.width} px`);
        if (size.name === 'phone') await expectNoHorizontalOverflow(page, `${path} (${schema}) at ${size.width} px`);
      }
    }
    await request.patch('/v1/tenant/domain-schema', { headers: { authorization: `ApiKey ${t.apiKey}` }, data: { domain_schema: 'general' } });
    // the phone menu, opened
    if (size.name === 'phone') {
      await open(page, '/console');
      await page.getByRole('button', { name: /^Menu/ }).click();
      await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Users' })).toBeVisible();
      await expectAccessible(page, 'the open menu at 390 px');
      await expectNoHorizontalOverflow(page, 'the open menu at 390 px');
    }
  }
  // the sign-in page, signed out
  for (const size of WIDTHS) {
    const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
    const login = await context.newPage();
    await login.goto('/console/login');
    await expect(login.getByLabel('E-mail address')).toBeVisible();
    await expectAccessible(login, `/console/login at ${size.width} px`);
    if (size.name === 'phone') await expectNoHorizontalOverflow(login, `/console/login at ${size.width} px`);
    await context.close();
  }
});

test('on a phone an operator finds a user, reads what was said, archives a memory and deletes it permanently', async ({ page, request }) => {
  test.setTimeout(120_000);
  const t = await tenantWithData(request, 'e2e-errand');
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, t.email);

  // the navigation folds behind a menu button
  const nav = page.getByRole('navigation', { name: 'Console' });
  await expect(nav).toBeHidden();
  await page.getByRole('button', { name: /^Menu/ }).click();
  await nav.getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expect(nav).toBeHidden();

  // search by a part of the id
  const users = page.getByRole('table', { name: 'End users' });
  await expect(users.getByRole('row')).toHaveCount(3);
  await page.getByLabel('External user id contains').fill('LINDQ');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(users.getByRole('row')).toHaveCount(2);
  await users.getByRole('link', { name: 'Memories of user oskar-lindqvist' }).click();

  // the memories page, filtered by the address, each memory with its page
  await expect(page).toHaveURL(/\/console\/memories\?user=oskar-lindqvist$/);
  await expect(page.getByLabel('External user id')).toHaveValue('oskar-lindqvist');
  const list = page.getByRole('list', { name: 'Memories of oskar-lindqvist' });
  await expect(list).toContainText('peanuts');
  await list.getByRole('link', { name: /^Open memory\b.*peanuts/ }).click();
  await expect(page.getByRole('heading', { level: 2, name: /allergic to peanuts/ })).toBeVisible();

  // the source event behind it: what was said, as a link with the full id in its name
  await page.getByRole('region', { name: 'Where it came from' }).getByRole('link', { name: /^Source event [0-9a-f-]{36}$/ }).click();
  await expect(page.getByRole('list', { name: 'Messages' })).toContainText('I am allergic to peanuts and I work as a pharmacist.');
  await expect(page.getByText('Payload kept')).toBeVisible();
  await page.goBack();

  // archive, after a confirmation
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Archive memory' }).click();
  await expect(page.getByText('Archived: retrieval no longer returns it.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Ledger history' })).toContainText('archived in the console');
  const memory = await get(request, t.apiKey, '/v1/memories?external_user_id=oskar-lindqvist&status=archived');
  expect(memory.items.map((m: { content: string }) => m.content).join(' ')).toContain('peanuts');
  await expectAccessible(page, 'an archived memory at 390 px');

  // then delete it permanently: a typed confirmation, back to the user's memories with a status message
  const memoryUrl = page.url();
  await page.getByRole('button', { name: 'Delete permanently…' }).click();
  const confirmDelete = page.getByRole('button', { name: 'Delete this memory permanently' });
  await expect(confirmDelete).toBeDisabled();
  await page.getByLabel('Type “delete” to confirm').fill('delete');
  await confirmDelete.click();
  await expect(page).toHaveURL(/\/console\/memories\?user=oskar-lindqvist&deleted=1$/);
  await expect(page.getByRole('status').filter({ hasText: 'The memory was deleted permanently.' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Memories of oskar-lindqvist' })).not.toContainText('peanuts');
  const all = await get(request, t.apiKey, '/v1/memories?external_user_id=oskar-lindqvist&status=all');
  expect(all.items.map((m: { content: string }) => m.content).join(' ')).not.toContain('peanuts');
  await expectAccessible(page, 'the memories list after a delete at 390 px');
  await page.goto(memoryUrl);
  await expect(page.getByText(/was not found/)).toBeVisible();

  // the schema note is said once, and points at the switch
  await page.goto('/console/students');
  await expect(page.getByText('is not enabled for this tenant')).toHaveCount(1);
  await page.getByRole('button', { name: 'Go to the switch' }).click();
  await expect(page.getByLabel('Domain schema')).toBeFocused();
});

test('an admin edits a memory, and erases a user after typing the id; the dialog and the receipt pass axe at both widths', async ({ page, request }) => {
  test.setTimeout(180_000);
  const t = await tenantWithAdmin(request, 'e2e-edit-erase');
  await add(request, t.apiKey, 'nina-berg', 'I live in Lisbon.');
  await add(request, t.apiKey, 'erase-me-1', 'I play the cello.');
  await add(request, t.apiKey, 'erase-me-2', 'I play the oboe.');
  await signIn(page, t.email);

  // edit: the server's field error is shown, then the new content and its ledger revision
  const [memory] = (await get(request, t.apiKey, '/v1/memories?external_user_id=nina-berg')).items;
  await open(page, `/console/memories/${memory.id}`);
  const form = page.getByRole('form', { name: 'Edit memory' });
  await form.getByLabel('Importance (0–1)').fill('1.5');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(form.getByRole('alert')).toContainText('importance:');
  await form.getByLabel('Importance (0–1)').fill('0.8');
  await form.getByLabel('Content').fill('I live in Coimbra.');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { level: 2, name: /I live in Coimbra/ })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Ledger history' })).toContainText('edited in the console');
  expect((await get(request, t.apiKey, `/v1/memories/${memory.id}`)).content).toBe('I live in Coimbra.');
  await expectAccessible(page, 'an edited memory at 1280 px');

  for (const [i, size] of WIDTHS.entries()) {
    const user = `erase-me-${i + 1}`;
    const where = `at ${size.width} px`;
    await page.setViewportSize({ width: size.width, height: size.height });
    await open(page, '/console/users');
    await page.getByRole('button', { name: `Erase user ${user}…` }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase user' });
    const erase = dialog.getByRole('button', { name: 'Erase this user' });
    const confirm = dialog.getByLabel('Type the external user id to confirm');
    await expect(erase).toBeDisabled();
    await expectAccessible(page, `the erase dialog ${where}`);
    await confirm.fill(user.slice(0, -1));
    await expect(erase).toBeDisabled();
    await confirm.fill(user);
    await erase.click();
    const receipt = dialog.getByRole('status', { name: 'Erasure receipt' });
    await expect(receipt).toContainText(/memories: [1-9]/);
    await expect(receipt).toContainText(/[0-9a-f]{64}/);
    await expect(receipt.getByRole('button', { name: 'Copy receipt' })).toBeVisible();
    await expectAccessible(page, `the erasure receipt ${where}`);
    if (size.name === 'phone') await expectNoHorizontalOverflow(page, `the erasure receipt ${where}`);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('table', { name: 'End users' })).not.toContainText(user);
    expect((await get(request, t.apiKey, `/v1/memories?external_user_id=${user}&status=all`)).items).toEqual([]);
  }
});

test('a key shown once goes to the clipboard with one button', async ({ page, request, context }) => {
  const t = await tenantWithAdmin(request, 'e2e-copy');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, t.email);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByLabel('Key name').fill('backend');
  await page.getByRole('button', { name: 'Create API key' }).click();
  const key = await page.getByLabel('New API key').inputValue();
  await page.getByRole('button', { name: 'Copy to clipboard' }).click();
  await expect(page.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
});
