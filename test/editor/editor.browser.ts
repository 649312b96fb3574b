import type { Locator, Page } from 'playwright-core';

import { CAFE } from '../helpers/cafe-scenario';
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

	it("Messaging Bot: the pickers list the emulator's bots and clients; a step sends the message", async () => {
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
		const before = (await admin<unknown[]>(demo.emulator, 'GET', '/sent-messages')).body.data
			.length;
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

	it('Get Diagram: the picture of the scenario shows in the output panel', async () => {
		await openWorkflow(page, demo.n8n.url, TOUR_ID);
		await openNode(page, 'Draw the Scenario');
		const output = await executeStep(page);
		await output.getByTestId('radio-button-binary').click();
		// Two files: the PNG n8n shows ("diagram") and the SVG to download ("svg").
		const text = String(await output.textContent());
		expect(text).toContain('order-status.png');
		expect(text).toContain('order-status.svg');
		await output.getByTestId('ndv-view-binary-data').first().click();
		const image = page.locator('.binary-data-window img');
		await image.waitFor({ timeout: 30_000 });
		const size = await image.evaluate((img) => {
			const shown = img as unknown as {
				naturalWidth: number;
				naturalHeight: number;
				complete: boolean;
			};
			return { width: shown.naturalWidth, height: shown.naturalHeight, complete: shown.complete };
		});
		// Decoded by the browser: the picture's own size, not a broken image.
		expect(size.complete).toBe(true);
		expect(size.width).toBeGreaterThan(800);
		expect(size.height).toBeGreaterThan(600);
		await screenshot(page, 'scenario-diagram.png');
		await page.locator('.binary-data-window-back').first().click();
		await closeNode(page);
	});

	it('Test Conversation: a scenario pasted into the emptied field keeps its placeholders; its errors one per line', async () => {
		await openWorkflow(page, demo.n8n.url, TOUR_ID);
		const ndv = await openNode(page, 'Try a Scenario');
		await pasteScenario(ndv, JSON.stringify(CAFE, null, 2));
		await executeStep(page);
		const shown = await outputJson(page, 30_000, 'Welcome to Cafe Luna');
		expect(shown).toContain('Hi Ada! Welcome to Cafe Luna. For how many?');
		expect(shown).toContain('Table for 4 noted!');
		// Two mistakes a designer makes: a misspelt state, a field of another part.
		const broken = JSON.stringify(CAFE, null, 2)
			.replace('"target": "noted"', '"target": "notd"')
			.replace('"end": true', '"end": true,\n      "question": "oops"');
		await pasteScenario(ndv, broken);
		const output = await executeStep(page);
		await expect(output.getByTestId('node-error-message').textContent()).resolves.toBe(
			'Scenario has 2 problems',
		);
		const description = output.getByTestId('node-error-description');
		const lines = String(await description.innerText()).split('\n');
		expect(lines).toHaveLength(2);
		expect(lines).toEqual(
			expect.arrayContaining([
				expect.stringMatching(
					/^• "target" of "giveUp" of "capture" of state hello: no state named "notd" \(did you mean "noted"\?\)/,
				),
				'• "question" of state noted: is not a known field',
			]),
		);
		await screenshot(page, 'scenario-errors.png');
		await closeNode(page);
	});

	it('the Trigger: the notice in n8n 2.41 words; listening goes past the service test event to the message', async () => {
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
		await page
			.getByText(/Listening for|Waiting for/)
			.first()
			.waitFor({ timeout: 30_000 });
		await subscribe(url);
		// The test event is acknowledged and listening goes on: the next real event shows
		// (this trigger listens to messages).
		await admin(demo.emulator, 'POST', '/inbound', {
			bot_id: 'bot_shop',
			client_id: 'cl_grace',
			text: 'hi from the editor',
		});
		const shown = await outputJson(page);
		expect(shown).toContain('hi from the editor');
		expect(shown).not.toContain('webhook.test');
		await collectLinks();
		await closeNode(page);
	});

	it('the Own Port Trigger: listening on its port goes past the test event to the order', async () => {
		await openWorkflow(page, demo.n8n.url, TOUR_ID);
		await openNode(page, 'Burst Receiver');
		await page.getByTestId('node-execute-button').click();
		const url = `http://127.0.0.1:${demo.ownPort}/messaging-bot`;
		await listening(url);
		await subscribe(url);
		// The test event is acknowledged and listening goes on: the next real event shows.
		await placeOrder();
		const shown = await outputJson(page);
		expect(shown).toContain('order.created');
		expect(shown).not.toContain('webhook.test');
		await collectLinks();
		await closeNode(page);
	});

	it('Get Analytics: the funnel of the conversations the demo bot held, one item per state and a summary', async () => {
		await openWorkflow(page, demo.n8n.url, TOUR_ID);
		await openNode(page, 'Read the Funnel');
		await executeStep(page);
		// The Trigger test's message reached the published order-status bot, on the same store and
		// scenario: at least that conversation is counted.
		// The JSON view draws only the rows in sight: the first items, the states from the start.
		const shown = await outputJson(page, 30_000, '"entered"');
		expect(shown).toMatch(/"kind":\s*"state"/);
		expect(shown).toMatch(/"state":\s*"welcome"/);
		const entered = [...shown.matchAll(/"entered":\s*(\d+)/g)].map((m) => Number(m[1]));
		expect(Math.max(0, ...entered)).toBeGreaterThanOrEqual(1);
		await screenshot(page, 'scenario-analytics.png');
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

	it('each credential dialog: its docs link, plain words, a test that says what it checked', async () => {
		const api = await openCredential('mbApiCredential1');
		// Here a connection is tested on saving (GET /bots on the emulator), and n8n says so.
		await api.getByTestId('parameter-input-rateLimit').locator('input').fill('99');
		await api.getByTestId('credential-save-button').click();
		await api.getByText('Connection tested successfully').waitFor({ timeout: 30_000 });
		await expect(
			api.getByTestId('parameter-input-rateWindowSeconds').locator('input').inputValue(),
		).resolves.toBe('60');
		expect(await credentialDocs(api)).toBe(`${DOCS}the-credential-messaging-bot-api`);
		expect(await api.textContent()).not.toMatch(/N8n\b/);
		await collectLinks();
		const webhook = await openCredential('mbWebhookSecret1');
		expect(await credentialDocs(webhook)).toBe(`${DOCS}the-credential-messaging-bot-webhook-api`);
		await expect(webhook.textContent()).resolves.toContain('Saving tests the form of the secrets');
		const previous = webhook.getByTestId('parameter-input-previousSecret').locator('input');
		// A secret pasted with a space at its end: saving tests it, and n8n says the test failed,
		// with the test's words naming the field among the details.
		await previous.fill('whsec_before_rotation ');
		expect(await saveWebhookCredential(webhook)).toEqual({
			status: 'Error',
			message: 'Previous Signing Secret has spaces at its start or end: copy it again',
		});
		await webhook.getByText('connect with these settings').waitFor({ timeout: 30_000 });
		await previous.fill('whsec_before_rotation');
		expect(await saveWebhookCredential(webhook)).toEqual({
			status: 'OK',
			message: expect.stringContaining('Form checked: Signing Secret is set'),
		});
		await webhook.getByText('Connection tested successfully').waitFor({ timeout: 30_000 });
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

	/** Empties the Scenario field and pastes `text` into it, as a designer does. */
	async function pasteScenario(ndv: Locator, text: string): Promise<void> {
		const editor = ndv.getByTestId('parameter-input-scenario').locator('.cm-content').first();
		await editor.click();
		await page.keyboard.press('ControlOrMeta+A');
		await page.keyboard.press('Delete');
		// Runs in the browser: its DataTransfer and ClipboardEvent, as a real paste brings.
		await editor.evaluate((el, pasted) => {
			type Transfer = { setData(type: string, value: string): void };
			// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- the page's globals, in the browser, never in n8n
			const browser = globalThis as unknown as {
				DataTransfer: new () => Transfer;
				ClipboardEvent: new (type: string, init: object) => unknown;
			};
			const data = new browser.DataTransfer();
			data.setData('text/plain', pasted);
			const paste = new browser.ClipboardEvent('paste', {
				clipboardData: data,
				bubbles: true,
				cancelable: true,
			});
			(el as unknown as { dispatchEvent(event: unknown): boolean }).dispatchEvent(paste);
		}, text);
		await page.waitForTimeout(500);
	}

	/** An order arrives from the dashboard: the service delivers order.created. */
	async function placeOrder(): Promise<void> {
		await admin(demo.emulator, 'POST', '/events', {
			event: 'order.created',
			data: { client_id: 'cl_grace', order_id: `ord_tour_${Date.now()}`, total: 12 },
		});
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

	/** Saves the open webhook credential; returns the result of the test n8n then runs. */
	async function saveWebhookCredential(
		modal: ReturnType<Page['getByTestId']>,
	): Promise<{ status: string; message: string }> {
		// A click while the dialog is still busy with the previous save is ignored: click again.
		for (let attempt = 1; ; attempt++) {
			const saved = page
				.waitForResponse(
					(r) =>
						r.url().includes('/rest/credentials/mbWebhookSecret1') &&
						r.request().method() === 'PATCH',
					{ timeout: 10_000 },
				)
				.catch((error: unknown) => (attempt < 3 ? null : Promise.reject(error)));
			const tested = page.waitForResponse(
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
});
