import type { Page } from 'playwright-core';

import { links, openBrowser, type Browser } from './browser';
import { canvasTests, nodePickerTests } from './canvas-tests';
import { credentialTests } from './credential-tests';
import { startDemo, type Demo } from './demo';
import { messagingBotTests } from './messaging-bot-tests';
import {
	scenarioAnalyticsTests,
	scenarioPanelTests,
	scenarioStepTests,
	testConversationTests,
} from './scenario-tests';
import { PACKAGE_PAGE, type EditorSession } from './session';
import { triggerTests } from './trigger-tests';

// The package in n8n's editor, as a user meets it: the demo `npm start` sets up, in Debian's
// Chromium driven by playwright-core. `npm run test:editor` (not part of `npm test`).
describe('the nodes in n8n 2.41 editor', () => {
	let demo: Demo;
	let browser: Browser;
	let page: Page;
	const seen: string[] = [];
	const session: EditorSession = {
		get demo() {
			return demo;
		},
		get page() {
			return page;
		},
		collectLinks: async () => {
			seen.push(...(await links(page)));
		},
	};

	beforeAll(async () => {
		demo = await startDemo();
		browser = await openBrowser(demo.n8n.url, demo.cookie);
		page = browser.page;
	}, 600_000);

	afterAll(async () => {
		await browser?.close();
		await demo?.stop();
	}, 60_000);

	// In this order, on one n8n and one page: a test may go on from where the one before left the
	// page, Get Analytics counts the conversation the Trigger test started, the links are checked last.
	canvasTests(session);
	scenarioPanelTests(session);
	messagingBotTests(session);
	scenarioStepTests(session);
	testConversationTests(session);
	triggerTests(session);
	scenarioAnalyticsTests(session);
	nodePickerTests(session);
	credentialTests(session);

	it('no link anywhere goes to example.invalid: the pages seen, and every text n8n has of the package', async () => {
		expect(seen.filter((l) => l.includes('example.invalid'))).toEqual([]);
		expect(seen.some((l) => l.startsWith(PACKAGE_PAGE))).toBe(true);
		for (const file of ['nodes', 'credentials']) {
			const res = await fetch(`${demo.n8n.url}/types/${file}.json`, {
				headers: { cookie: demo.cookie },
			});
			const text = await res.text();
			expect(text).toContain('n8n-nodes-messaging-bot');
			expect(text).not.toContain('example.invalid');
		}
	});
});
