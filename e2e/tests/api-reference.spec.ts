import { type Page, expect, test } from '@playwright/test';
import { screenshotPath } from './support';

/** The number of operations in the served OpenAPI document. */
async function operationCount(page: Page): Promise<number> {
  const doc = (await (await page.request.get('/v1/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
  return Object.values(doc.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
}

/** The page's text outside code: markdown left unrendered shows here as `**` or a pair of backticks. */
const proseText = (page: Page) =>
  page.locator('main').evaluate((main) => {
    const copy = main.cloneNode(true) as HTMLElement;
    for (const el of copy.querySelectorAll('pre, code')) el.remove();
    return copy.textContent ?? '';
  });

for (const { name, width } of [
  { name: 'desktop', width: 1280 },
  { name: 'phone', width: 390 },
]) {
  test(`the API reference at ${width} px: sidebar, linked schemas, rendered markdown, examples for every operation`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/docs/api');
    await expect(page.getByRole('heading', { level: 1, name: 'Memory Service API' })).toBeVisible();
    const operations = await operationCount(page);
    expect(operations).toBeGreaterThan(50);

    // The sidebar: a sticky column on a wide screen, a collapsed <details> on a phone; a link per operation.
    let nav = page.getByRole('navigation', { name: 'API reference', exact: true });
    if (width < 1024) {
      await expect(nav).toBeHidden();
      await page.getByText('Contents', { exact: true }).click();
      nav = page.getByRole('navigation', { name: 'API reference contents' });
    }
    await expect(nav).toBeVisible();
    await expect(nav.locator('li li a[href^="#"]')).toHaveCount(operations);
    for (const tag of ['Memories', 'Tenant', 'Webhooks', 'Passport', 'Admin']) await expect(nav.getByRole('link', { name: tag, exact: true })).toBeVisible();

    // A sidebar link jumps to its operation.
    await nav.getByRole('link', { name: 'post /v1/memories/retrieve' }).click();
    await expect(page).toHaveURL(/#retrieveMemories$/);
    const retrieve = page.locator('#retrieveMemories');
    await expect(retrieve.getByRole('heading', { level: 3, name: 'post /v1/memories/retrieve' })).toBeInViewport();
    await expect(retrieve.getByRole('cell', { name: /^context_max_tokens/ })).toBeVisible();
    await expect(retrieve.getByRole('cell', { name: /^external_user_id required/ })).toBeVisible();

    // A component type links to its rendered schema.
    await retrieve.getByRole('link', { name: 'RetrieveRequest', exact: true }).first().click();
    await expect(page).toHaveURL(/#schema-RetrieveRequest$/);
    const schema = page.locator('#schema-RetrieveRequest');
    await expect(schema.getByRole('heading', { level: 3, name: 'RetrieveRequest' })).toBeInViewport();
    await expect(schema.getByRole('cell', { name: /^query required/ })).toBeVisible();
    await schema.getByRole('link', { name: 'RetrieveCategory', exact: true }).click();
    await expect(page.locator('#schema-RetrieveCategory').getByText('"conversation"')).toBeVisible();

    // Markdown is rendered: no `**` or backtick pairs left in the prose, and inline code became <code>.
    const prose = await proseText(page);
    expect(prose).not.toContain('**');
    expect(prose.match(/`[^`\n]+`/g) ?? []).toEqual([]);
    await expect(page.locator('#addMemories').locator('code', { hasText: 'Idempotency-Key' }).first()).toBeVisible();

    // A curl, a TypeScript and (for a body) a JSON example for every operation.
    await expect(page.locator('main figcaption', { hasText: /^curl$/ })).toHaveCount(operations);
    await expect(page.locator('main figcaption', { hasText: /^TypeScript$/ })).toHaveCount(operations);
    const add = page.locator('#addMemories');
    await expect(add.getByLabel('curl')).toContainText('-H "Authorization: ApiKey $MEMORY_API_KEY"');
    await expect(add.getByLabel('TypeScript')).toContainText('await memory.memories.add({');
    await expect(add.getByLabel('Request example (JSON)')).toContainText('"external_user_id": "user_42"');
    await expect(page.locator('#createTenant').getByLabel('TypeScript')).toContainText('Bearer ${process.env.MEMORY_ADMIN_TOKEN}');

    // Nothing is wider than the screen: long code scrolls inside its own block.
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);

    await page.goto('/docs/api#addMemories');
    await page.screenshot({ path: screenshotPath(`api-reference-${name}.png`) });
  });
}

test('the API reference links the OpenAPI document, which has tags, servers and request examples', async ({ page }) => {
  await page.goto('/docs/api');
  await page.getByRole('link', { name: '/v1/openapi.json' }).first().click();
  await expect(page).toHaveURL(/\/v1\/openapi\.json$/);
  const doc = JSON.parse((await page.locator('body').innerText()).trim());
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  expect(doc.paths['/v1/memories/add'].post.tags).toEqual(['Memories']);
  expect(doc.paths['/v1/memories/add'].post.requestBody.content['application/json'].examples.default.value.external_user_id).toBe('user_42');
});

test('the home page links the reference', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'API reference' }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
});
