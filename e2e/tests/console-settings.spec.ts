import { type APIRequestContext, expect, test } from '@playwright/test';
import { addAndWait, expectAccessible, signIn, tenantWithAdmin } from './support';

async function settingsOf(request: APIRequestContext, key: string) {
  const res = await request.get('/v1/tenant/settings', { headers: { authorization: `ApiKey ${key}` } });
  expect(res.status()).toBe(200);
  return (await res.json()).data;
}

test('memory settings: an admin sets payload retention and review before write in the console, and the API and the write path follow', async ({
  page,
  request,
}) => {
  const { apiKey, email } = await tenantWithAdmin(request, 'e2e-settings');
  await signIn(page, email);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Memory settings' });

  // a new tenant's defaults: payloads kept 30 days, no review before write
  await expect(section.getByRole('spinbutton', { name: /Keep payloads for/ })).toHaveValue('30');
  await expect(section.getByLabel('Keep payloads forever')).not.toBeChecked();
  await expect(section.getByLabel('Hold new memories for review')).not.toBeChecked();

  // review on without a category or an authority: the server's message, nothing stored
  await section.getByRole('spinbutton', { name: /Keep payloads for/ }).fill('7');
  await section.getByLabel('Hold new memories for review').check();
  await section.getByRole('button', { name: 'Save memory settings' }).click();
  await expect(section.getByRole('alert')).toHaveText(
    'Some of the input is not valid. review_before_write: name at least one category or a below_authority; send null to turn review before write off',
  );
  expect(await settingsOf(request, apiKey)).toEqual({ payload_retention_days: 30, review_before_write: null });

  await section.getByLabel('fact', { exact: true }).check();
  await section.getByRole('spinbutton', { name: /authority below/ }).fill('50');
  await section.getByRole('button', { name: 'Save memory settings' }).click();
  await expect(section.getByRole('status')).toHaveText('Saved.');
  expect(await settingsOf(request, apiKey)).toEqual({ payload_retention_days: 7, review_before_write: { categories: ['fact'], below_authority: 50 } });
  await expectAccessible(page, 'settings with review before write on');

  // the write path follows: a fact is held as pending, not retrievable
  await addAndWait(request, apiKey, 'noor', 'I drive a Tesla.');
  const retrieved = await request.post('/v1/memories/retrieve', {
    headers: { authorization: `ApiKey ${apiKey}` },
    data: { external_user_id: 'noor', query: 'what car does the user drive? Tesla' },
  });
  expect(JSON.stringify((await retrieved.json()).data)).not.toContain('The user drives a Tesla.');

  // a reload shows what is stored
  await page.reload();
  await expect(section.getByRole('spinbutton', { name: /Keep payloads for/ })).toHaveValue('7');
  await expect(section.getByLabel('Hold new memories for review')).toBeChecked();
  await expect(section.getByLabel('fact', { exact: true })).toBeChecked();
  await expect(section.getByLabel('goal', { exact: true })).not.toBeChecked();
  await expect(section.getByRole('spinbutton', { name: /authority below/ })).toHaveValue('50');

  // both off again
  await section.getByLabel('Keep payloads forever').check();
  await section.getByLabel('Hold new memories for review').uncheck();
  await section.getByRole('button', { name: 'Save memory settings' }).click();
  await expect(section.getByRole('status')).toHaveText('Saved.');
  expect(await settingsOf(request, apiKey)).toEqual({ payload_retention_days: null, review_before_write: null });
});
