import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { addAndWait, screenshotPath, signIn, tenantWithAdmin } from './support';

async function retrieveText(request: APIRequestContext, key: string, query: string) {
  const res = await request.post('/v1/memories/retrieve', { headers: { authorization: `ApiKey ${key}` }, data: { external_user_id: 'ines', query } });
  expect(res.status()).toBe(200);
  return JSON.stringify((await res.json()).data);
}

async function openHeld(page: Page, content: string) {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Reviews' }).click();
  await page.getByRole('link', { name: new RegExp(`Write this new memory\\? “${content.replace('.', '\\.')}”`) }).click();
  await expect(page.getByRole('article', { name: 'Held memory' }).getByLabel('Content')).toHaveValue(content);
}

test('review before write: an admin approves, edits then approves, and rejects held memories in the console', async ({ page, request }) => {
  const { apiKey, email } = await tenantWithAdmin(request, 'e2e-rbw');
  const key = apiKey;
  // written before the setting: the active memory a held one may conflict with
  await addAndWait(request, key, 'ines', 'I live in Lisbon.');
  const set = await request.patch('/v1/tenant/settings', { headers: { authorization: `ApiKey ${key}` }, data: { review_before_write: { categories: ['fact'] } } });
  expect(set.status()).toBe(200);
  await addAndWait(request, key, 'ines', 'I moved to Porto.');
  await addAndWait(request, key, 'ines', 'I work at Globex.');
  await addAndWait(request, key, 'ines', 'I drive a Tesla.');
  expect(await retrieveText(request, key, 'where does the user live? Porto')).not.toContain('Porto');

  await signIn(page, email);
  await expect(page.getByLabel('Open reviews: 3')).toBeVisible();

  // approve, seen beside the memory it conflicts with and its source text
  await openHeld(page, 'The user moved to Porto.');
  await expect(page.getByRole('list', { name: 'Related memories' })).toContainText('The user lives in Lisbon.');
  await expect(page.getByRole('list', { name: 'Source messages' })).toContainText('I moved to Porto.');
  await expect(page.getByRole('list', { name: 'Source messages' })).toContainText('(extracted from this message)');
  await page.screenshot({ path: screenshotPath('console-review-before-write.png'), fullPage: true });
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Approved' })).toContainText('The user moved to Porto.');
  expect(await retrieveText(request, key, 'where does the user live?')).toContain('The user moved to Porto.');

  // edit, then approve
  await openHeld(page, 'The user works at Globex.');
  await page.getByRole('article', { name: 'Held memory' }).getByLabel('Content').fill('The user works at Initech.');
  await page.getByLabel('Note (optional)').fill('Ines corrected the employer');
  await page.getByRole('button', { name: 'Save edit and approve' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Edited and approved' })).toContainText('The user works at Initech.');
  const work = await retrieveText(request, key, 'where does the user work?');
  expect(work).toContain('The user works at Initech.');
  expect(work).not.toContain('Globex');

  // reject
  await openHeld(page, 'The user drives a Tesla.');
  await page.getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Rejected' })).toBeVisible();
  expect(await retrieveText(request, key, 'what car does the user drive? Tesla')).not.toContain('Tesla');

  // the ledger of the edited memory, in the console
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Memories' }).click();
  await page.getByLabel('External user id').fill('ines');
  await page.getByRole('button', { name: 'Show memories' }).click();
  await page.getByRole('button', { name: /The user works at Initech\./ }).click();
  const history = page.getByRole('list', { name: 'Ledger history' });
  await expect(history).toContainText('edited');
  await expect(history).toContainText('approved');
});
