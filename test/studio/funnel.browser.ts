/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- studio test tooling: files, a local server and a browser, never loaded by n8n */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Page } from 'playwright-core';

import { stateOrder } from '../../runtime/scenarios/analytics/main-path';
import { readAnalytics, type VersionFunnel } from '../../runtime/scenarios/analytics/reading';
import type { ScenarioDocument } from '../../runtime/scenarios/format/schema';
import { openCountersReadOnly, type CounterReader } from '../../runtime/stores/read-only';
import { SqliteStore } from '../../runtime/stores/sqlite';
import { funnelFrom, pageDir, trafficFrom } from '../../runtime/studio/server/command';
import { startStudio, type RunningStudio } from '../../runtime/studio/server/server';
import { Chat, MINUTE } from '../scenarios/harness';
import { openBrowser, screenshot, stateBox } from './page';

/**
 * The funnel beside the graph, from a SQLite store filled by the engine: version 1's leads three
 * days ago (one books a call, one goes quiet at the email, one says "stop", a customer handed to a
 * person), version 2's today (one books, one is still answering). Each bar of the main path is
 * checked against the reading Get Analytics makes of the same store, for every version and each.
 */

const root = path.resolve(__dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'mb-studio-funnel-'));
const scenarioFile = path.join(dir, 'lead-qualification.json');
const storeFile = path.join(dir, 'state.sqlite');
const doc = () => JSON.parse(readFileSync(scenarioFile, 'utf8')) as ScenarioDocument;
const DAY = 86_400_000;
const TODAY = new Date().toISOString().slice(0, 10);
const EARLIER = new Date(Date.now() - 3 * DAY).toISOString().slice(0, 10);
let studio: RunningStudio;
let reader: CounterReader;
let page: Page;
let close: () => Promise<void>;

async function talk(version: number, day: string, talks: Record<string, string[]>) {
	const chat = new Chat([{ ...doc(), version }], {
		openStore: (now) => new SqliteStore(storeFile, now),
		clients: [{ id: 'cl_vip', first_name: 'Vic', tags: ['customer'] }],
	});
	chat.time = Date.parse(`${day}T00:05:00Z`);
	for (const [client, lines] of Object.entries(talks))
		for (const line of lines) {
			await chat.say(line, client);
			chat.time += MINUTE;
		}
	await chat.store.close();
}

beforeAll(async () => {
	copyFileSync(path.join(root, 'examples/scenarios/lead-qualification.json'), scenarioFile);
	await talk(1, EARLIER, {
		cl_1: ['hi', 'pricing', '12', 'ada@example.com', 'yes'],
		cl_2: ['hi', 'demo', '5'],
		cl_3: ['hi', 'stop'],
		cl_vip: ['hi', 'hello'],
	});
	await talk(2, TODAY, {
		cl_4: ['hi', 'demo', '300', 'grace@example.com', 'yes'],
		cl_5: ['hi', 'support'],
	});
	reader = openCountersReadOnly(storeFile);
	studio = await startStudio({
		files: [scenarioFile],
		pageDir: pageDir(),
		traffic: trafficFrom(reader),
		funnel: funnelFrom(reader),
	});
	({ page, close } = await openBrowser());
	await page.setViewportSize({ width: 1600, height: 1000 });
});

afterAll(async () => {
	await close?.();
	await studio?.close();
	await reader?.close();
	rmSync(dir, { recursive: true, force: true });
});

type Bar = Record<'reached' | 'completed' | 'handedOff' | 'dropped' | 'inProgress', number>;

/** The main path's bars as the reading gives them, the versions picked summed (written here apart). */
function expectedBars(versions: VersionFunnel[]): Array<[string, Bar]> {
	return stateOrder(doc()).mainPath.map((state) => {
		const bar: Bar = { reached: 0, completed: 0, handedOff: 0, dropped: 0, inProgress: 0 };
		for (const v of versions)
			for (const s of v.states.filter((x) => x.state === state))
				for (const key of Object.keys(bar) as Array<keyof Bar>) bar[key] += s[key];
		return [state, bar];
	});
}

async function checkBars(on: Page, bars: Array<[string, Bar]>): Promise<void> {
	for (const [i, [state, bar]] of bars.entries()) {
		const row = on.getByTestId(`funnel-${state}`);
		await on
			.locator(`[data-testid="funnel-${state}"][data-reached="${bar.reached}"]`)
			.waitFor({ timeout: 5000 });
		await expect(row.getByTestId(`funnel-${state}-stops`).textContent()).resolves.toBe(
			`stopped here: ${bar.completed} completed · ${bar.handedOff} handed off · ${bar.dropped} dropped · ${bar.inProgress} in progress`,
		);
		const next = bars[i + 1]?.[1];
		if (next && bar.reached >= next.reached)
			await expect(row.getByTestId(`funnel-${state}-lost`).textContent()).resolves.toMatch(
				new RegExp(`^▼ ${bar.reached - next.reached} \\(\\d+%\\) did not go on$`),
			);
	}
}

test('the funnel beside the graph: the main path in order, each bar as the reading counts it, each version apart', async () => {
	const report = await readAnalytics(reader, {
		scenario: doc().id,
		from: new Date(Date.now() - 6 * DAY).toISOString().slice(0, 10),
		to: TODAY,
	});
	expect(report.versions.map((v) => v.version)).toEqual([1, 2]);
	const all = expectedBars(report.versions);
	// Written by hand from the talks: six reached the greeting; the customer was handed off there;
	// cl_2 went quiet three days ago at the email (dropped); cl_5 answered today (in progress).
	expect(all[0]).toEqual([
		'welcome',
		expect.objectContaining({ reached: 6, handedOff: 1, inProgress: 0 }),
	]);
	expect(all.map(([s]) => s)).toEqual(['welcome', 'ask_size', 'ask_email', 'summary', '__end']);
	expect(Object.fromEntries(all)).toMatchObject({
		ask_size: { reached: 4, inProgress: 1 },
		ask_email: { reached: 3, dropped: 1 },
	});

	await page.goto(studio.url);
	await stateBox(page, 'ask_size').waitFor();
	await page.getByTestId('toggle-funnel').check();
	await page.getByTestId('funnel').waitFor();
	const began = Date.now();
	await checkBars(page, all);
	const shown = Date.now() - began;
	await expect(page.getByTestId('funnel-apart').textContent()).resolves.toContain(
		'1 handed off · 1 dropped · 1 in progress',
	);
	await screenshot(page, 'studio-funnel.png');

	for (const version of [1, 2]) {
		await page.getByTestId('funnel-version').selectOption(String(version));
		await checkBars(page, expectedBars(report.versions.filter((v) => v.version === version)));
	}
	process.stdout.write(`Funnel drawn and checked ${shown} ms after the toggle\n`);
});

test('the period picked above the graph is the funnel’s: a week with none shows nothing reached', async () => {
	await page.getByTestId('funnel-version').selectOption('all');
	await page.getByTestId('traffic-from').fill('2025-01-01');
	await page.getByTestId('traffic-to').fill('2025-01-07');
	await page.locator('[data-testid="funnel-welcome"][data-reached="0"]').waitFor();
	await expect(page.getByTestId('funnel-apart').textContent()).resolves.toContain(
		'0 conversations',
	);
});
