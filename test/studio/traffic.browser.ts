/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- studio test tooling: files, a local server and a browser, never loaded by n8n */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Page } from 'playwright-core';

import { readTraffic } from '../../runtime/scenarios/offline/traffic-reading';
import { openCountersReadOnly, type CounterReader } from '../../runtime/stores/read-only';
import { SqliteStore } from '../../runtime/stores/sqlite';
import { pageDir, trafficFrom } from '../../runtime/studio/server/command';
import { startStudio, type RunningStudio } from '../../runtime/studio/server/server';
import { Chat, MINUTE } from '../scenarios/harness';
import { openBrowser, screenshot, stateBox } from './page';

/**
 * The studio started with a state store (`--store`): the conversations the engine counted there
 * drawn on the graph (entered and dropped off per state, counts on the arrows, widths), the period
 * picked in the page; and without a store, the page says traffic needs one.
 */

const root = path.resolve(__dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'mb-studio-traffic-'));
const scenarioFile = path.join(dir, 'lead-qualification.json');
const storeFile = path.join(dir, 'state.sqlite');
const doc = () => JSON.parse(readFileSync(scenarioFile, 'utf8')) as { id: string };
const TODAY = new Date().toISOString().slice(0, 10);
let studio: RunningStudio;
let bare: RunningStudio;
let reader: CounterReader;
let page: Page;
let close: () => Promise<void>;

/** Five leads today: three book a call, one stops at the email, one never says what it wants. */
async function fill(): Promise<void> {
	const chat = new Chat([doc()], { openStore: (now) => new SqliteStore(storeFile, now) });
	chat.time = Date.parse(`${TODAY}T00:05:00Z`);
	const talks: Record<string, string[]> = {
		cl_1: ['hi', 'pricing', '12', 'ada@example.com', 'yes'],
		cl_2: ['hi', 'demo', '300', 'grace@example.com', 'yes'],
		cl_3: ['hi', 'support', '4', 'alan@example.com', 'yes'],
		cl_4: ['hi', 'demo', '5'],
		cl_5: ['hi', 'what?'],
	};
	for (const [client, lines] of Object.entries(talks))
		for (const line of lines) {
			await chat.say(line, client);
			chat.time += MINUTE;
		}
	await chat.store.close();
}

beforeAll(async () => {
	copyFileSync(path.join(root, 'examples/scenarios/lead-qualification.json'), scenarioFile);
	await fill();
	reader = openCountersReadOnly(storeFile);
	studio = await startStudio({
		files: [scenarioFile],
		pageDir: pageDir(),
		traffic: trafficFrom(reader),
	});
	bare = await startStudio({ files: [scenarioFile], pageDir: pageDir() });
	({ page, close } = await openBrowser());
});

afterAll(async () => {
	await close?.();
	await studio?.close();
	await bare?.close();
	await reader?.close();
	rmSync(dir, { recursive: true, force: true });
});

const traffic = (state: string) => page.getByTestId(`traffic-${state}`);

/** What the graph holds, for a failure's message: boxes, arrows, labels, the legend. */
async function drawn(on: Page): Promise<string> {
	const count = async (selector: string) => await on.locator(selector).count();
	const legend = await on.getByTestId('traffic-legend').textContent();
	return JSON.stringify({
		nodes: await count('.react-flow__node'),
		edges: await count('.react-flow__edge'),
		labels: await count('.route-label'),
		counts: await count('.edge-count'),
		legend,
	});
}

test("shows each state's and arrow's counts from the store on the graph", async () => {
	const expected = await readTraffic(reader, { scenario: doc().id, from: TODAY, to: TODAY });
	// The one client still at the greeting wrote a moment ago: in progress, not dropped off.
	expect(expected.states.welcome).toMatchObject({
		reached: 5,
		visits: 5,
		dropOff: 0,
		inProgress: 1,
	});
	await page.goto(studio.url);
	// Until the file is read, the page shows a new scenario (with a "welcome" of its own).
	await stateBox(page, 'ask_size').waitFor();
	for (const [state, seen] of Object.entries(expected.states)) {
		if (state.startsWith('__')) continue;
		const share = Math.round((seen.dropOff / seen.entered) * 100);
		const text = `${seen.entered} reached · ${seen.dropOff} dropped off (${share}%)`;
		await traffic(state).filter({ hasText: text }).waitFor({ timeout: 5000 });
		await expect(traffic(state).textContent()).resolves.toBe(text);
	}
	// Arrows: the count of the busiest beside its label, its line wider than one never taken.
	// React Flow places the arrows' labels once the boxes are measured: wait for them.
	await page
		.locator('.edge-count')
		.first()
		.waitFor()
		.catch(async (error: Error) => {
			throw new Error(`${error.message}\nthe graph then: ${await drawn(page)}`);
		});
	const counts = await page.locator('.edge-count').allTextContents();
	expect(counts.map((c) => c.trim())).toContain('×4');
	// Each arrow's width as set on it (the start and end arrows have none).
	const widths = (
		await page
			.locator('.react-flow__edge-path.route')
			.evaluateAll((paths) =>
				paths.map((p) => (p as { style: { strokeWidth: string } }).style.strokeWidth),
			)
	)
		.filter((w) => w !== '')
		.map((w) => Number.parseFloat(w));
	expect(Math.max(...widths)).toBeGreaterThan(5);
	expect(Math.min(...widths)).toBe(1);
	await expect(page.getByTestId('traffic-legend').textContent()).resolves.toContain('most 5');
	await page.waitForTimeout(300);
	await screenshot(page, 'studio-traffic.png');
});

test('a period before the conversations shows none counted', async () => {
	await page.getByTestId('traffic-from').fill('2025-01-01');
	await page.getByTestId('traffic-to').fill('2025-01-07');
	await traffic('welcome').filter({ hasText: '0 reached · 0 dropped off (0%)' }).waitFor();
	await expect(stateBox(page, 'welcome').textContent()).resolves.not.toContain('5 reached');
});

test('without a store, the page says traffic needs one', async () => {
	await page.goto(bare.url);
	await stateBox(page, 'welcome').waitFor();
	await expect(page.getByTestId('traffic-bar').textContent()).resolves.toContain(
		'Traffic needs a state store',
	);
	expect(await page.locator('.state-traffic').count()).toBe(0);
});
