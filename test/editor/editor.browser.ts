import type { Page } from 'playwright-core';

import { admin } from '../helpers/emulator';
import { exampleWorkflows } from '../../scripts/lib/demo-setup';
import {
	canvasNode,
	closeNode,
	executeStep,
	links,
	openBrowser,
	outputJson,
	openNode,
	openWorkflow,
	pick,
	pickerItems,
	screenshot,
	showHelp,
	type Browser,
} from './browser';
import { startDemo, DEMO_SECRET, type Demo } from './demo';
import { TOUR_ID } from './tour';

const DOCS = 'https://www.npmjs.com/package/n8n-nodes-messaging-bot#';

// The package in n8n's editor, as a user meets it: the demo `npm start` sets up, in Debian's
// Chromium driven by playwright-core. `npm run test:editor` (not part of `npm test`).
describe('the nodes in n8n 2.41 editor', () => {
	let demo: Demo;
	let browser: Browser;
	let page: Page;
	const seen: string[] = [];
	/** Links on the page now, kept for the check that none goes to example.invalid. */
	const collectLinks = async () => seen.push(...(await links(page)));

	beforeAll(async () => {
		demo = await startDemo();
		browser = await openBrowser(demo.n8n.url, demo.cookie);
		page = browser.page;
	}, 600_000);

	afterAll(async () => {
		await browser?.close();
		await demo?.stop();
	}, 60_000);

	it("retakes the README's screenshots: each example workflow on the canvas", async () => {
		for (const workflow of exampleWorkflows()) {
			await openWorkflow(page, demo.n8n.url, workflow.id);
			await collectLinks();
			await screenshot(page, `${workflow.id}.png`);
		}
		// Subtitles show the names the user picked, never internal values.
		await openWorkflow(page, demo.n8n.url, 'mbTagOnOrder0001');
		await expect(canvasNode(page, 'Tag as Customer').textContent()).resolves.toContain(
			'Client: Update Tags',
		);
		await openWorkflow(page, demo.n8n.url, 'mbOrderStatusBot');
		const scenario = await canvasNode(page, 'Order-Status Scenario').textContent();
		expect(scenario).toContain('Handle Message');
		expect(scenario).not.toContain('handleMessage');
	});

	it("the Scenario node's panel: its Docs link and the Scenario field's help link to the README", async () => {
		await openWorkflow(page, demo.n8n.url, 'mbOrderStatusBot');
		const ndv = await openNode(page, 'Order-Status Scenario');
		await expect(ndv.getByRole('link', { name: 'Docs' }).getAttribute('href')).resolves.toBe(
			`${DOCS}the-node-messaging-bot-scenario`,
		);
		await expect(ndv.textContent()).resolves.toContain('Storage');
		await screenshot(page, 'scenario-node.png');
		await showHelp(ndv, 'Scenario');
		const help = page.locator(`a[href="${DOCS}the-scenario-format"]`);
		await help.first().waitFor({ state: 'visible', timeout: 10_000 });
		await collectLinks();
		await closeNode(page);
	});

	it('Messaging Bot: the pickers list the emulator\'s bots and clients; a step sends the message', async () => {
		await openWorkflow(page, demo.n8n.url, TOUR_ID);
		const ndv = await openNode(page, 'Send Message');
		await expect(ndv.getByRole('link', { name: 'Docs' }).getAttribute('href')).resolves.toBe(
			`${DOCS}the-node-messaging-bot`,
		);
		const bots = (
			(await (
				await fetch(`${demo.emulator.baseUrl}/bots`, {
					headers: { Authorization: `Bearer ${demo.emulator.apiKey}` },
				})
			).json()) as { data: Array<{ name: string }> }
		).data;
		expect(await pickerItems(page, 'botId')).toEqual(
			bots.map((b) => expect.stringContaining(b.name)),
		);
		await pick(page, 'Shop Assistant');
		const clients = await pickerItems(page, 'clientId');
		expect(clients).toContain('Ada Lovelace · ada@example.com');
		expect(clients).toHaveLength(5);
		await pick(page, 'Ada Lovelace');
		await executeStep(page);
		await expect(outputJson(page)).resolves.toContain('Hello from the editor');
		const sent = (
			await admin<Array<{ text: string }>>(demo.emulator, 'GET', '/sent-messages?client_id=cl_ada')
		).body.data.map((m) => m.text);
		expect(sent).toContain('Hello from the editor');
		await collectLinks();
	});

	it('an error names the field by its label, and nothing is sent', async () => {
		const before = (await admin<unknown[]>(demo.emulator, 'GET', '/sent-messages')).body.data.length;
		await page.getByTestId('parameter-input-text').locator('textarea').fill('   ');
		const output = await executeStep(page);
		await expect(output.getByTestId('node-error-message').textContent()).resolves.toBe(
			'Text must not be empty or only spaces',
		);
		await screenshot(page, 'editor-error.png');
		const after = (await admin<unknown[]>(demo.emulator, 'GET', '/sent-messages')).body.data.length;
		expect(after).toBe(before);
		await closeNode(page);
	});

	it('the Scenario node runs a step: Get Conversation', async () => {
		await openWorkflow(page, demo.n8n.url, TOUR_ID);
		const ndv = await openNode(page, 'Read Conversation');
		await executeStep(page);
		await expect(outputJson(page)).resolves.toContain('"bot_shop"');
		await expect(ndv.textContent()).resolves.not.toMatch(/SQLite File|N8n\b/);
		await collectLinks();
		await closeNode(page);
	});

	it('the Trigger: the notice in n8n 2.41 words; listening shows the test event the service sends', async () => {
		await openWorkflow(page, demo.n8n.url, TOUR_ID);
		const ndv = await openNode(page, 'Client Writes');
		const text = String(await ndv.textContent());
		expect(text).toContain('Execute step');
		expect(text).not.toContain('Listen for test event');
		await expect(ndv.getByRole('link', { name: 'Docs' }).getAttribute('href')).resolves.toBe(
			`${DOCS}the-trigger-messaging-bot-trigger`,
		);
		await page.getByTestId('node-execute-button').click();
		const url = `${demo.n8n.url}/webhook-test/messaging-bot-editor-tour/messaging-bot`;
		await page.getByText(/Listening for|Waiting for/).first().waitFor({ timeout: 30_000 });
		await subscribe(url);
		await expect(outputJson(page)).resolves.toContain('webhook.test');
		await collectLinks();
		await closeNode(page);
	});

	it('the Own Port Trigger: listening on its port shows the test event', async () => {
		await openWorkflow(page, demo.n8n.url, TOUR_ID);
		await openNode(page, 'Burst Receiver');
		await page.getByTestId('node-execute-button').click();
		const url = `http://127.0.0.1:${demo.ownPort}/messaging-bot`;
		await listening(url);
		await subscribe(url);
		await expect(outputJson(page)).resolves.toContain('webhook.test');
		await collectLinks();
		await closeNode(page);
	});

	it('the node picker names each operation as the panel does', async () => {
		await openWorkflow(page, demo.n8n.url, TOUR_ID);
		await page.getByTestId('node-creator-plus-button').click();
		const creator = page.getByTestId('node-creator');
		await creator.waitFor();
		await page.getByTestId('node-creator-search-bar').fill('Messaging Bot');
		await creator
			.getByTestId('item-iterator-item')
			.filter({ has: page.getByText('Messaging Bot', { exact: true }) })
			.first()
			.click();
		await creator.getByText('Get many clients').first().waitFor();
		const actions = String(await creator.textContent());
		for (const action of ['Send a message', 'Update tags of a client', 'Get bot statistics'])
			expect(actions).toContain(action);
		expect(actions).not.toContain('Search clients');
		await collectLinks();
		await page.keyboard.press('Escape');
	});

	it('each credential dialog: its docs link, plain words, no fake test', async () => {
		const api = await openCredential('mbApiCredential1');
		// Here a connection is tested on saving (GET /bots on the emulator), and n8n says so.
		await api.getByTestId('parameter-input-rateLimit').locator('input').fill('99');
		await api.getByTestId('credential-save-button').click();
		await api.getByText('Connection tested successfully').waitFor({ timeout: 30_000 });
		await expect(api.getByTestId('parameter-input-rateWindowSeconds').locator('input').inputValue()).resolves.toBe('60');
		expect(await credentialDocs(api)).toBe(`${DOCS}the-credential-messaging-bot-api`);
		expect(await api.textContent()).not.toMatch(/N8n\b/);
		await collectLinks();
		const webhook = await openCredential('mbWebhookSecret1');
		expect(await credentialDocs(webhook)).toBe(`${DOCS}the-credential-messaging-bot-webhook-api`);
		await expect(webhook.textContent()).resolves.toContain('this credential has no test');
		await webhook
			.getByTestId('parameter-input-previousSecret')
			.locator('input')
			.fill('whsec_before_rotation');
		const saved = page.waitForResponse(
			(r) => r.url().includes('/rest/credentials/mbWebhookSecret1') && r.request().method() === 'PATCH',
		);
		await webhook.getByTestId('credential-save-button').click();
		expect((await saved).ok()).toBe(true);
		await page.waitForTimeout(3_000);
		expect(await webhook.getByText('Connection tested successfully').isVisible()).toBe(false);
		await collectLinks();
		const redis = await openCredential('mbRedisState0001');
		expect(await credentialDocs(redis)).toBe(
			`${DOCS}the-credential-messaging-bot-redis-state-store-api`,
		);
		await collectLinks();
	});

	it('no link anywhere goes to example.invalid: the pages seen, and every text n8n has of the package', async () => {
		expect(seen.filter((l) => l.includes('example.invalid'))).toEqual([]);
		expect(seen.some((l) => l.startsWith(DOCS))).toBe(true);
		for (const file of ['nodes', 'credentials']) {
			const res = await fetch(`${demo.n8n.url}/types/${file}.json`, {
				headers: { cookie: demo.cookie },
			});
			const text = await res.text();
			expect(text).toContain('n8n-nodes-messaging-bot');
			expect(text).not.toContain('example.invalid');
		}
	});

	/** The service (the emulator) subscribes the URL; it sends its test event when saving. */
	async function subscribe(url: string): Promise<void> {
		const saved = await admin<{ test_delivery: { state: string } }>(
			demo.emulator,
			'POST',
			'/subscriptions',
			{ url, secret: DEMO_SECRET, events: ['*'] },
		);
		expect(saved.body.data.test_delivery.state).toBe('delivered');
	}

	/** Waits until something answers on the URL's port: the trigger listens. */
	async function listening(url: string): Promise<void> {
		const deadline = Date.now() + 30_000;
		while (Date.now() < deadline) {
			const answered = await fetch(url, { method: 'GET' }).then(
				() => true,
				() => false,
			);
			if (answered) return;
			await page.waitForTimeout(300);
		}
		throw new Error(`Nothing listens on ${url}`);
	}

	async function openCredential(id: string) {
		await page.goto(`${demo.n8n.url}/home/credentials/${id}`, { waitUntil: 'networkidle' });
		const modal = page.getByTestId('editCredential-modal');
		await modal.waitFor();
		return modal;
	}

	async function credentialDocs(modal: ReturnType<Page['getByTestId']>): Promise<string | null> {
		const link = modal.locator('a[href*="npmjs.com"], a[href*="example.invalid"]').first();
		return await link.getAttribute('href');
	}
});
