import type { Page } from 'playwright-core';

import { MessagingBotApi } from '../../credentials/MessagingBotApi.credentials';
import { MessagingBotRedisApi } from '../../credentials/MessagingBotRedisApi.credentials';
import { MessagingBotWebhookApi } from '../../credentials/MessagingBotWebhookApi.credentials';
import { type EditorSession } from './session';

/** Each credential dialog: its docs link, plain words, a test that says what it checked. */
export function credentialTests(session: EditorSession): void {
	it('each credential dialog: its docs link, plain words, a test that says what it checked', async () => {
		const api = await openCredential(session, 'mbApiCredential1');
		// Here a connection is tested on saving (GET /bots on the emulator), and n8n says so.
		await api.getByTestId('parameter-input-rateLimit').locator('input').fill('99');
		await api.getByTestId('credential-save-button').click();
		await api.getByText('Connection tested successfully').waitFor({ timeout: 30_000 });
		await expect(
			api.getByTestId('parameter-input-rateWindowSeconds').locator('input').inputValue(),
		).resolves.toBe('60');
		expect(await credentialDocs(api)).toBe(new MessagingBotApi().documentationUrl);
		expect(await api.textContent()).not.toMatch(/N8n\b/);
		await session.collectLinks();
		const webhook = await openCredential(session, 'mbWebhookSecret1');
		expect(await credentialDocs(webhook)).toBe(new MessagingBotWebhookApi().documentationUrl);
		await expect(webhook.textContent()).resolves.toContain('Saving tests the form of the secrets');
		const previous = webhook.getByTestId('parameter-input-previousSecret').locator('input');
		// A secret pasted with a space at its end: saving tests it, and n8n says the test failed,
		// with the test's words naming the field among the details.
		// Left with Tab before saving: n8n takes an input's value on its debounce or its blur, and a
		// save clicked before either tested the form without it (seen once in CI).
		await previous.fill('whsec_before_rotation ');
		await previous.press('Tab');
		expect(await saveWebhookCredential(session, webhook)).toEqual({
			status: 'Error',
			message: 'Previous Signing Secret has spaces at its start or end: copy it again',
		});
		await webhook.getByText('connect with these settings').waitFor({ timeout: 30_000 });
		await previous.fill('whsec_before_rotation');
		await previous.press('Tab');
		expect(await saveWebhookCredential(session, webhook)).toEqual({
			status: 'OK',
			message: expect.stringContaining('Form checked: Signing Secret is set'),
		});
		await webhook.getByText('Connection tested successfully').waitFor({ timeout: 30_000 });
		await session.collectLinks();
		const redis = await openCredential(session, 'mbRedisState0001');
		expect(await credentialDocs(redis)).toBe(new MessagingBotRedisApi().documentationUrl);
		await session.collectLinks();
	});
}

async function openCredential(session: EditorSession, id: string) {
	await session.page.goto(`${session.demo.n8n.url}/home/credentials/${id}`, {
		waitUntil: 'networkidle',
	});
	const modal = session.page.getByTestId('editCredential-modal');
	await modal.waitFor();
	return modal;
}

/** Saves the open webhook credential; returns the result of the test n8n then runs. */
async function saveWebhookCredential(
	session: EditorSession,
	modal: ReturnType<Page['getByTestId']>,
): Promise<{ status: string; message: string }> {
	// A click while the dialog is still busy with the previous save is ignored: click again.
	for (let attempt = 1; ; attempt++) {
		const saved = session.page
			.waitForResponse(
				(r) =>
					r.url().includes('/rest/credentials/mbWebhookSecret1') &&
					r.request().method() === 'PATCH',
				{ timeout: 10_000 },
			)
			.catch((error: unknown) => (attempt < 3 ? null : Promise.reject(error)));
		const tested = session.page.waitForResponse(
			(r) => r.url().includes('/rest/credentials/test') && r.request().method() === 'POST',
		);
		tested.catch(() => undefined);
		await modal.getByTestId('credential-save-button').click();
		const response = await saved;
		if (!response) continue;
		expect(response.ok()).toBe(true);
		return ((await (await tested).json()) as { data: { status: string; message: string } }).data;
	}
}

async function credentialDocs(modal: ReturnType<Page['getByTestId']>): Promise<string | null> {
	const link = modal.locator('a[href*="npmjs.com"], a[href*="example.invalid"]').first();
	return await link.getAttribute('href');
}
