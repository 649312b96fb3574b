import type { Locator } from 'playwright-core';

import { CAFE } from '../helpers/cafe-scenario';
import {
	closeNode,
	executeStep,
	openNode,
	openWorkflow,
	outputJson,
	screenshot,
	showHelp,
} from './browser';
import { DOCS, type EditorSession } from './session';
import { TOUR_ID } from './tour';

// The Scenario node in the editor: its panel, its steps, the errors of a pasted scenario.

/** The Scenario node's panel: its Docs link and the Scenario field's help. */
export function scenarioPanelTests(session: EditorSession): void {
	it("the Scenario node's panel: its Docs link and the Scenario field's help link to the docs", async () => {
		await openWorkflow(session.page, session.demo.n8n.url, 'mbOrderStatusBot');
		const ndv = await openNode(session.page, 'Order-Status Scenario');
		await expect(ndv.getByRole('link', { name: 'Docs' }).getAttribute('href')).resolves.toBe(
			DOCS.scenario,
		);
		await expect(ndv.textContent()).resolves.toContain('Storage');
		await screenshot(session.page, 'scenario-node.png');
		await showHelp(ndv, 'Scenario');
		const help = session.page.locator(`a[href="${DOCS.scenarioFormat}"]`);
		await help.first().waitFor({ state: 'visible', timeout: 10_000 });
		await session.collectLinks();
		await closeNode(session.page);
	});
}

/** The Scenario node's steps on the tour's scenario: Get Conversation, Get Diagram. */
export function scenarioStepTests(session: EditorSession): void {
	it('the Scenario node runs a step: Get Conversation', async () => {
		await openWorkflow(session.page, session.demo.n8n.url, TOUR_ID);
		const ndv = await openNode(session.page, 'Read Conversation');
		await executeStep(session.page);
		await expect(outputJson(session.page)).resolves.toContain('"bot_shop"');
		await expect(ndv.textContent()).resolves.not.toMatch(/SQLite File|N8n\b/);
		await session.collectLinks();
		await closeNode(session.page);
	});

	it('Get Diagram: the picture of the scenario shows in the output panel', async () => {
		await openWorkflow(session.page, session.demo.n8n.url, TOUR_ID);
		await openNode(session.page, 'Draw the Scenario');
		const output = await executeStep(session.page);
		await output.getByTestId('radio-button-binary').click();
		// Two files: the PNG n8n shows ("diagram") and the SVG to download ("svg").
		const text = String(await output.textContent());
		expect(text).toContain('order-status.png');
		expect(text).toContain('order-status.svg');
		await output.getByTestId('ndv-view-binary-data').first().click();
		const image = session.page.locator('.binary-data-window img');
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
		await screenshot(session.page, 'scenario-diagram.png');
		await session.page.locator('.binary-data-window-back').first().click();
		await closeNode(session.page);
	});
}

/** Test Conversation with a scenario pasted as a designer does: its placeholders kept, its errors one per line. */
export function testConversationTests(session: EditorSession): void {
	it('Test Conversation: a scenario pasted into the emptied field keeps its placeholders; its errors one per line', async () => {
		await openWorkflow(session.page, session.demo.n8n.url, TOUR_ID);
		const ndv = await openNode(session.page, 'Try a Scenario');
		await pasteScenario(session, ndv, JSON.stringify(CAFE, null, 2));
		await executeStep(session.page);
		const shown = await outputJson(session.page, 30_000, 'Welcome to Cafe Luna');
		expect(shown).toContain('Hi Ada! Welcome to Cafe Luna. For how many?');
		expect(shown).toContain('Table for 4 noted!');
		// Two mistakes a designer makes: a misspelt state, a field of another part.
		const broken = JSON.stringify(CAFE, null, 2)
			.replace('"target": "noted"', '"target": "notd"')
			.replace('"end": true', '"end": true,\n      "question": "oops"');
		await pasteScenario(session, ndv, broken);
		const output = await executeStep(session.page);
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
		await screenshot(session.page, 'scenario-errors.png');
		await closeNode(session.page);
	});
}

/** Get Analytics: the funnel counts the conversation the Trigger test's message started, so it runs after it. */
export function scenarioAnalyticsTests(session: EditorSession): void {
	it('Get Analytics: the funnel of the conversations the demo bot held, one item per state and a summary', async () => {
		await openWorkflow(session.page, session.demo.n8n.url, TOUR_ID);
		await openNode(session.page, 'Read the Funnel');
		await executeStep(session.page);
		// The Trigger test's message reached the published order-status bot, on the same store and
		// scenario: at least that conversation is counted.
		// The JSON view draws only the rows in sight: the first items, the states from the start.
		const shown = await outputJson(session.page, 30_000, '"reached"');
		expect(shown).toMatch(/"kind":\s*"state"/);
		expect(shown).toMatch(/"state":\s*"welcome"/);
		const reached = [...shown.matchAll(/"reached":\s*(\d+)/g)].map((m) => Number(m[1]));
		expect(Math.max(0, ...reached)).toBeGreaterThanOrEqual(1);
		expect(shown).not.toContain('undefined');
		await screenshot(session.page, 'scenario-analytics.png');
		await closeNode(session.page);
	});
}

/** Empties the Scenario field and pastes `text` into it, as a designer does. */
async function pasteScenario(session: EditorSession, ndv: Locator, text: string): Promise<void> {
	const editor = ndv.getByTestId('parameter-input-scenario').locator('.cm-content').first();
	await editor.click();
	await session.page.keyboard.press('ControlOrMeta+A');
	await session.page.keyboard.press('Delete');
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
	await session.page.waitForTimeout(500);
}
