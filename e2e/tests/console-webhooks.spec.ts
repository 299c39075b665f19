import { type IncomingHttpHeaders, createServer } from 'node:http';
import { expect, test } from '@playwright/test';
import { verifyWebhook } from '../../packages/sdk/src/webhooks';
import { signIn, tenantWithAdmin, screenshotPath } from './support';

/** A receiver on 127.0.0.1 that records what it gets and answers 200. */
async function startReceiver() {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/memory-hook`, received, close: () => new Promise((r) => server.close(r)) };
}

test('an admin registers a webhook in the console, sees signed deliveries in the log, resends, rotates and disables', async ({ page, request }) => {
  const receiver = await startReceiver();
  try {
    const { apiKey, email } = await tenantWithAdmin(request, 'e2e-webhooks');
    await signIn(page, email);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Webhooks' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    await expect(page.getByText('No webhook endpoints yet.')).toBeVisible();

    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel('Description (optional)').fill('CRM sync');
    await page.getByRole('checkbox', { name: /^memory\.created/ }).check();
    await page.getByRole('checkbox', { name: /^job\.completed/ }).check();
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    const secret = await page.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    const endpoint = page.getByRole('article', { name: `Endpoint ${receiver.url}` });
    await expect(endpoint).toContainText('memory.created, job.completed');
    await expect(endpoint).toContainText(`secret ${secret.slice(0, 10)}…`);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await expect(page.getByLabel('Signing secret')).toHaveCount(0);

    const add = await request.post('/v1/memories/add', {
      headers: { authorization: `ApiKey ${apiKey}` },
      data: { external_user_id: 'e2e-hook-user', messages: [{ role: 'user', content: "I'm a vegetarian." }] },
    });
    expect((await add.json()).status).toBe('queued');
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(2);
    const types = receiver.received.map((r) => verifyWebhook<{ type: string }>(secret, r.headers as Record<string, string>, r.body).payload.type);
    expect(types.sort()).toEqual(['job.completed', 'memory.created']);

    await endpoint.getByRole('button', { name: 'Deliveries' }).click();
    const log = endpoint.getByRole('table', { name: 'Delivery log' });
    await expect(log.getByRole('row')).toHaveCount(3);
    await expect(log).toContainText('succeeded');
    await expect(log).toContainText('1 / 8');
    await page.screenshot({ path: screenshotPath('console-webhooks.png'), fullPage: true });

    await log.getByRole('button', { name: /^Resend memory\.created/ }).click();
    await expect(log.getByRole('row')).toHaveCount(4);
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(3);
    expect(receiver.received[2].headers['webhook-id']).toBe(
      receiver.received.find((r) => JSON.parse(r.body).type === 'memory.created')?.headers['webhook-id'],
    );
    await expect(log).toContainText('resend');

    page.once('dialog', (d) => void d.accept());
    await endpoint.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = await page.getByLabel('Signing secret').inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await expect(endpoint).toContainText('previous secret signs until');
    await page.getByRole('button', { name: 'I have stored it' }).click();

    await endpoint.getByRole('button', { name: 'Disable' }).click();
    await expect(endpoint).toContainText('disabled (manual)');
    await expect(log.getByRole('button', { name: /^Resend memory\.created/ }).first()).toBeDisabled();
    const api = await request.get('/v1/tenant/webhooks', { headers: { authorization: `ApiKey ${apiKey}` } });
    expect((await api.json()).data[0]).toMatchObject({ status: 'disabled', disabled_reason: 'manual', description: 'CRM sync' });
  } finally {
    await receiver.close();
  }
});
