import { type APIRequestContext, expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { signIn, tenantWithAdmin, screenshotPath } from './support';

const FIXTURE = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../tests/fixtures/tutoring-conversations.json'), 'utf8')) as {
  student: string;
  sessions: Array<{ messages: unknown[] }>;
};

async function add(request: APIRequestContext, key: string, messages: unknown[]) {
  const res = await request.post('/v1/memories/add', {
    headers: { authorization: `ApiKey ${key}` },
    data: { external_user_id: FIXTURE.student, messages },
  });
  expect(res.status()).toBe(200);
  const { job_id } = await res.json();
  await expect
    .poll(async () => (await (await request.get(`/v1/memories/jobs/${job_id}`, { headers: { authorization: `ApiKey ${key}` } })).json()).data.status)
    .toBe('completed');
}

test('an admin switches the tenant to EdTech in the console and sees a student’s profile with its memories', async ({ page, request }) => {
  const { apiKey, email } = await tenantWithAdmin(request, 'e2e-students');
  for (const s of FIXTURE.sessions) await add(request, apiKey, s.messages);

  await signIn(page, email);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Students' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Active:' })).toContainText('General Engine');
  await expect(page.getByRole('option', { name: 'HR Tech (announced)' })).toBeDisabled();

  // said once, beside the switch; the profile form waits for the schema
  await expect(page.getByText('EdTech Schema is not enabled for this tenant')).toHaveCount(1);
  await expect(page.getByLabel('External user id')).toHaveCount(0);

  await page.getByLabel('Domain schema').selectOption('edtech');
  await page.getByRole('button', { name: 'Save schema' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Active:' })).toContainText('EdTech Schema');
  await expect(page.getByText('is not enabled for this tenant')).toHaveCount(0);

  await page.getByLabel('External user id').fill(FIXTURE.student);
  await page.getByRole('button', { name: 'Show profile' }).click();

  const profile = page.getByRole('region', { name: 'Student profile' });
  await expect(profile).toContainText('10th grade');
  await expect(profile).toContainText('fractions');
  await expect(profile).toContainText('chemistry exam on 12 June 2025');
  await expect(profile).toContainText('(2025-06-12)');
  // the memories behind an entry are links to their pages, the full id in each link's name
  await expect(profile.getByRole('link', { name: /^Memory [0-9a-f-]{36}$/ }).first()).toHaveAttribute('href', /^\/console\/memories\/[0-9a-f-]{36}$/);
  await page.screenshot({ path: screenshotPath('console-student-profile.png'), fullPage: true });

  const api = await request.get('/v1/tenant/domain-schema', { headers: { authorization: `ApiKey ${apiKey}` } });
  expect((await api.json()).data.domain_schema).toBe('edtech');
});
