/**
 * The consent app end to end (docs/consent-app.md): a tenant's agent asks a passport user for access through
 * /connect, the user signs in with an e-mailed code and approves (or declines), the agent's backend exchanges
 * the link token and uses the universal store, and the user revokes the agent on /passport.
 */
import { expect, test } from '@playwright/test';
import { addUniversal, agentWithLink, connectUrl, exchange, retrieveUniversal } from './passport-support';
import { passportSignIn, screenshotPath } from './support';

test('a user approves an agent on /connect, the agent reads only the granted categories, the user revokes it on /passport', async ({ page, request }) => {
  const { agentId, agentKey, linkToken, tenantKey } = await agentWithLink(request, 'Trip Planner');
  const email = `passport-${Date.now()}@example.com`;
  // everything the browser receives (pages, scripts, tRPC answers), checked for keys at the end
  const received: Promise<string>[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() !== 'image') received.push(r.text().catch(() => ''));
  });

  await page.goto(connectUrl(agentId, linkToken));
  await expect(page.getByRole('heading', { level: 1, name: 'Connect Trip Planner to your Memory Passport' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Who is asking' })).toContainText('Plans your trips and remembers what you like.');
  await passportSignIn(page, email);

  const what = page.getByRole('group', { name: 'What may Trip Planner use?' });
  await expect(what.getByRole('checkbox', { name: /Facts about you/ })).toBeChecked();
  await expect(what.getByRole('checkbox', { name: /Your preferences/ })).toBeChecked();
  await expect(what.getByRole('checkbox', { name: /Your goals/ })).not.toBeChecked();
  await expect(page.getByText('Verified', { exact: true })).toHaveCount(0);
  await page.getByRole('group', { name: 'Access' }).getByRole('radio', { name: /Read and write/ }).check();
  await page.screenshot({ path: screenshotPath('passport-consent.png'), fullPage: true });

  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('heading', { name: "You're connected — you can close this page" })).toBeVisible();
  await page.screenshot({ path: screenshotPath('passport-connected.png'), fullPage: true });

  // The agent's backend exchanges the link token it holds for the user's X-Service-UUI token, once.
  const exchanged = await exchange(request, agentKey, linkToken);
  expect(exchanged.status()).toBe(200);
  const issued = (await exchanged.json()).data;
  expect(issued).toMatchObject({ token_type: 'X-Service-UUI', external_user_id: 'u-42', categories: ['fact', 'preference'], access_type: 'read_write' });
  const uui = issued.uui_token as string;
  const replay = await exchange(request, agentKey, linkToken);
  expect(replay.status()).toBe(409);
  expect((await replay.json()).code).toBe('link_token_used');

  // A granted category (fact) and one that is not granted (goal).
  expect(await addUniversal(request, agentKey, uui, 'I live in Berlin.')).toMatchObject({ status: 'completed', memories_created: 1 });
  const outside = await addUniversal(request, agentKey, uui, 'I want to learn Japanese.');
  expect(outside).toMatchObject({ status: 'processed', memories_created: 0 });
  expect(outside.extraction_metadata.dropped_outside_grant).toBe(1);
  const before = await retrieveUniversal(request, agentKey, uui);
  expect(before.permission_error).toBeNull();
  expect(before.data.map((m) => m.content)).toEqual(['The user lives in Berlin.']);
  expect(before.data.every((m) => ['fact', 'preference'].includes(m.category))).toBe(true);

  // A second agent, of another tenant, connects to the same passport (the user is still signed in) and hears a
  // different city without any change language: two equally trusted writers disagree, so the claims wait for the
  // user's answer. (One agent's own later claim would simply supersede its earlier one: docs/conflicts.md.)
  const second = await agentWithLink(request, 'Dining Guide');
  await page.goto(connectUrl(second.agentId, second.linkToken));
  await expect(page.getByRole('heading', { level: 1, name: 'Connect Dining Guide to your Memory Passport' })).toBeVisible();
  await page.getByRole('group', { name: 'Access' }).getByRole('radio', { name: /Read and write/ }).check();
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('heading', { name: "You're connected — you can close this page" })).toBeVisible();
  const secondUui = (await (await exchange(request, second.agentKey, second.linkToken)).json()).data.uui_token as string;
  expect(await addUniversal(request, second.agentKey, secondUui, 'I live in Munich.')).toMatchObject({ status: 'completed' });
  const asking = await retrieveUniversal(request, agentKey, uui);
  expect(asking.clarification_question).toBe('Do you currently live in Berlin or in Munich?');
  expect(asking.data).toEqual([]);

  // The used link now says so.
  await page.goto(connectUrl(agentId, linkToken));
  await expect(page.getByRole('heading', { name: 'This link has already been used' })).toBeVisible();

  await page.goto('/passport');
  await expect(page.getByRole('heading', { level: 1, name: 'Your Memory Passport' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Connected agents' })).toHaveAttribute('aria-selected', 'true');
  const card = page.getByRole('article', { name: 'Trip Planner' });
  await expect(card).toContainText('Read and write');
  await expect(card.getByRole('list', { name: 'What Trip Planner may use' })).toContainText('Facts about you');
  await expect(card.getByRole('list', { name: 'What Trip Planner may use' })).toContainText('Your preferences');
  await page.getByRole('tab', { name: 'Connections' }).click();
  await expect(page.getByRole('button', { name: 'Disconnect Trip Planner' })).toBeVisible();
  await page.getByRole('tab', { name: 'Pending questions' }).click();
  await page
    .getByRole('group', { name: 'Do you currently live in Berlin or in Munich?' })
    .getByRole('button', { name: 'The user lives in Munich.' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Kept: The user lives in Munich.' })).toBeVisible();
  await expect(page.getByText('No pending questions.')).toBeVisible();
  const answered = await retrieveUniversal(request, agentKey, uui);
  expect(answered.clarification_question).toBeNull();
  expect(answered.data.map((m) => m.content)).toEqual(['The user lives in Munich.']);

  await page.getByRole('tab', { name: 'Connected agents' }).click();
  await page.screenshot({ path: screenshotPath('passport-agents.png'), fullPage: true });

  await card.getByRole('button', { name: 'Revoke Trip Planner' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Trip Planner can no longer use your passport.' })).toBeVisible();
  await page.getByRole('article', { name: 'Dining Guide' }).getByRole('button', { name: 'Revoke Dining Guide' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Dining Guide can no longer use your passport.' })).toBeVisible();
  await expect(page.getByText('No agent can use your passport.')).toBeVisible();

  const after = await retrieveUniversal(request, agentKey, uui);
  expect(after.permission_error).toBe('no_grant_for_user');
  expect(after.data).toEqual([]);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'You have signed out.' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sign in to your Memory Passport' })).toBeVisible();

  // no tenant key, agent key or X-Service-UUI token ever reached the browser
  const seen = (await Promise.all(received)).join('\n');
  expect(seen.length).toBeGreaterThan(10_000);
  for (const secret of [tenantKey, agentKey, uui, second.tenantKey, second.agentKey, secondUui]) expect(seen).not.toContain(secret);
  expect(seen).not.toMatch(/mem_(sk|ak|uui)_[A-Za-z0-9_-]{20,}/);
});

test('a user declines on /connect: nothing is connected and the agent cannot exchange the link', async ({ page, request }) => {
  const { agentId, agentKey, linkToken } = await agentWithLink(request, 'Decline Bot');
  await page.goto(connectUrl(agentId, 'mem_lt_not-a-real-token'));
  await expect(page.getByRole('heading', { name: 'This link is not valid' })).toBeVisible();

  // Declining needs no sign-in.
  const other = await agentWithLink(request, 'Quiet Bot');
  await page.goto(connectUrl(other.agentId, other.linkToken));
  await page.getByRole('button', { name: 'Decline without signing in' }).click();
  await expect(page.getByRole('heading', { name: 'You declined', exact: true })).toBeVisible();
  expect((await exchange(request, other.agentKey, other.linkToken)).status()).toBe(403);

  await page.goto(connectUrl(agentId, linkToken));
  await passportSignIn(page, `decline-${Date.now()}@example.com`);
  await page.getByRole('button', { name: 'Decline', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'You declined', exact: true })).toBeVisible();

  const refused = await exchange(request, agentKey, linkToken);
  expect(refused.status()).toBe(403);
  expect((await refused.json()).code).toBe('link_token_declined');

  await page.goto('/passport');
  await expect(page.getByText('No agent can use your passport.')).toBeVisible();
  await page.getByRole('tab', { name: 'Connections' }).click();
  await expect(page.getByText('No accounts are connected.')).toBeVisible();

  // Deleting the passport signs the user out.
  await page.getByRole('tab', { name: 'Delete my passport' }).click();
  const remove = page.getByRole('button', { name: 'Delete my passport' });
  await expect(remove).toBeDisabled();
  await page.getByLabel('Type DELETE MY PASSPORT to confirm').fill('DELETE MY PASSPORT');
  await remove.click();
  await expect(page.getByRole('status').filter({ hasText: 'Your passport has been deleted and you have been signed out.' })).toBeVisible();
  await expect(page.getByLabel('E-mail address')).toBeVisible();
});

test('the consent pages refuse to be framed and are not cached', async ({ page, request, baseURL }) => {
  for (const path of ['/connect?agent_id=x&link_token=y', '/passport']) {
    const res = await request.get(path);
    expect(res.status()).toBe(200);
    const h = res.headers();
    expect(h['x-frame-options']).toBe('DENY');
    expect(h['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(h['cache-control']).toContain('no-store');
    expect(h['referrer-policy']).toBe('no-referrer');
  }
  // A page of another origin that frames /connect: Chromium refuses to render it (the frame shows an error page).
  await page.route('http://framer.test/', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<iframe onload="window.frameLoaded = true" src="${new URL('/connect?agent_id=x&link_token=y', baseURL).href}"></iframe>`,
    }),
  );
  await page.goto('http://framer.test/');
  await page.waitForFunction(() => (window as unknown as { frameLoaded?: boolean }).frameLoaded === true);
  const child = page.mainFrame().childFrames()[0];
  expect(child.url()).not.toContain('/connect');
  expect(await child.evaluate(() => document.body?.innerText ?? '').catch(() => '')).not.toContain('Memory Passport');
});
