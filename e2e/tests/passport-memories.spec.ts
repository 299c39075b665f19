/**
 * The passport home's memories and access log (docs/consent-app.md), at 1280 and 390 px: the user sees what an agent
 * saved (by category, who wrote it, when), which agent read it, downloads the export and deletes a memory (with a
 * confirmation) that the agent then no longer gets. Each view passes an axe-core audit with no serious or critical
 * violation.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { addUniversal, agentWithLink, connectUrl, exchange, retrieveUniversal } from './passport-support';
import { expectAccessible, expectNoHorizontalOverflow, passportSignIn, screenshotPath } from './support';


for (const width of [1280, 390]) {
  test(`at ${width} px: memories by category with their writer, the access log, export and delete`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
    const planner = await agentWithLink(request, `Trip Planner ${width}`);
    await page.goto(connectUrl(planner.agentId, planner.linkToken));
    await passportSignIn(page, `memories-${width}-${Date.now()}@example.com`);
    await page.getByRole('group', { name: 'Access' }).getByRole('radio', { name: /Read and write/ }).check();
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByRole('heading', { name: "You're connected — you can close this page" })).toBeVisible();
    const uui = (await (await exchange(request, planner.agentKey, planner.linkToken)).json()).data.uui_token as string;
    expect(await addUniversal(request, planner.agentKey, uui, 'I live in Berlin. I love jazz.')).toMatchObject({ memories_created: 2 });
    expect((await retrieveUniversal(request, planner.agentKey, uui)).data).toHaveLength(2);

    await page.goto('/passport');
    await page.getByRole('tab', { name: 'Your memories' }).click();
    const facts = page.getByRole('region', { name: /Facts about you/ });
    await expect(facts).toContainText('The user lives in Berlin.');
    await expect(facts).toContainText(`Saved by Trip Planner ${width}`);
    await expect(page.getByRole('region', { name: /Your preferences/ })).toContainText('The user loves jazz.');
    await expectNoHorizontalOverflow(page, `/passport at ${width} px`);
    await expectAccessible(page, `/passport at ${width} px`);
    if (width === 1280) await page.screenshot({ path: screenshotPath('passport-memories.png'), fullPage: true });

    // the export: a JSON file with the memories and their writer
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download all my data (JSON)' }).click()]);
    expect(download.suggestedFilename()).toBe('memory-passport-export.json');
    const bundle = JSON.parse(await readFile((await download.path()) as string, 'utf8'));
    expect(bundle.memories.map((m: { written_by: { name: string } }) => m.written_by.name)).toEqual([`Trip Planner ${width}`, `Trip Planner ${width}`]);
    expect(bundle.access_log).toHaveLength(1);

    // the access log: who read, when, how many
    await page.getByRole('tab', { name: 'Access log' }).click();
    const log = page.getByRole('list', { name: 'Reads by agents, newest first' });
    await expect(log.getByRole('listitem')).toHaveCount(1);
    await expect(log).toContainText(`Trip Planner ${width} searched your memories and got 2 memories (Facts about you, Your preferences)`);
    await expectNoHorizontalOverflow(page, `/passport at ${width} px`);
    await expectAccessible(page, `/passport at ${width} px`);
    if (width === 1280) await page.screenshot({ path: screenshotPath('passport-access-log.png'), fullPage: true });

    // delete with a confirmation; Cancel keeps it
    await page.getByRole('tab', { name: 'Your memories' }).click();
    await page.getByRole('button', { name: 'Delete: The user loves jazz.' }).click();
    await page.getByRole('group', { name: 'Confirm deletion' }).getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('region', { name: /Your preferences/ })).toBeVisible();
    await page.getByRole('button', { name: 'Delete: The user loves jazz.' }).click();
    await expectAccessible(page, `/passport at ${width} px`);
    await page.getByRole('group', { name: 'Confirm deletion' }).getByRole('button', { name: 'Yes, delete' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Deleted: The user loves jazz.' })).toBeVisible();
    await expect(page.getByRole('region', { name: /Your preferences/ })).toHaveCount(0);
    await expect(facts).toContainText('The user lives in Berlin.');
    // the agent no longer gets it
    expect((await retrieveUniversal(request, planner.agentKey, uui)).data.map((m) => m.content)).toEqual(['The user lives in Berlin.']);
    await page.getByRole('tab', { name: 'Access log' }).click();
    await expect(log.getByRole('listitem')).toHaveCount(2);
    await expect(log.getByRole('listitem').first()).toContainText('got 1 memory (Facts about you)');
  });
}
