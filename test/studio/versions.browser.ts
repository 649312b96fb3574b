/* eslint-disable @n8n/community-nodes/no-restricted-imports -- studio test tooling: files, a local server and a browser, never loaded by n8n */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Page } from 'playwright-core';

import { splitVerdict } from '../../runtime/scenarios/analytics/verdict';
import { ScenarioVersions } from '../../runtime/scenarios/offline/scenario-versions';
import { SqliteStore } from '../../runtime/stores/sqlite';
import { greetingOf } from '../scenarios/split-fixture';
import { editorText, openBrowser, screenshot, stateBox } from './page';
import { SHOP_V1, SHOP_V2, studioWithStore, talk } from './versions-fixture';

/**
 * The store's versions in the studio, from a SQLite file filled by the engine: version 1's clients
 * three days ago (one at the welcome, two at the menu, one ordered), version 2's today, each
 * greeted by the split test. The version list's figures, a Move's preview and the Move (read back
 * from the store), the split step drawn with its weights and its verdict, and Roll Back to v1 into
 * the file.
 */

const dir = mkdtempSync(path.join(tmpdir(), 'mb-studio-versions-'));
const scenarioFile = path.join(dir, 'shop.json');
const storeFile = path.join(dir, 'state.sqlite');
const DAY = 86_400_000;
const TODAY = new Date().toISOString().slice(0, 10);
const V1_AT = Date.parse(`${new Date(Date.now() - 3 * DAY).toISOString().slice(0, 10)}T00:05:00Z`);
const V2_AT = Date.parse(`${TODAY}T00:05:00Z`);
const counts = { short: { clients: 0, goal: 0 }, warm: { clients: 0, goal: 0 } };
let studio: Awaited<ReturnType<typeof studioWithStore>>;
let page: Page;
let close: () => Promise<void>;

/** The store's versions as the runtime lists them (a store of its own, closed after). */
async function listed() {
	const store = new SqliteStore(storeFile);
	try {
		return await new ScenarioVersions(store, SHOP_V2).list();
	} finally {
		await store.close();
	}
}

beforeAll(async () => {
	writeFileSync(scenarioFile, `${JSON.stringify(SHOP_V2, null, 2)}\n`);
	await talk(storeFile, SHOP_V1, V1_AT, {
		cl_a: ['hi'],
		cl_b: ['hi', 'menu'],
		cl_c: ['hi', 'menu', 'pasta'],
		cl_d: ['hi', 'menu', 'yes'],
	});
	// Version 2: 24 clients, every third one orders; each one's greeting tells its variant.
	const talks: Record<string, string[]> = {};
	for (let i = 0; i < 24; i++) talks[`cl_${i}`] = i % 3 === 0 ? ['hi', 'yes'] : ['hi'];
	const heard = await talk(storeFile, SHOP_V2, V2_AT, talks);
	for (let i = 0; i < 24; i++) {
		const variant = greetingOf(heard[`cl_${i}`]);
		counts[variant].clients++;
		if (i % 3 === 0) counts[variant].goal++;
	}
	studio = await studioWithStore(storeFile, [scenarioFile]);
	({ page, close } = await openBrowser());
	await page.setViewportSize({ width: 1600, height: 1000 });
	await page.goto(studio.url);
	await stateBox(page, 'hello').waitFor();
});

afterAll(async () => {
	await close?.();
	await studio?.close();
	rmSync(dir, { recursive: true, force: true });
});

const seen = (ms: number) => `${new Date(ms).toISOString().replace('T', ' ').slice(0, 16)} UTC`;

test('the version list: each version the store has seen, first and last seen, live conversations, its funnel', async () => {
	const v2Live = 24 - 8;
	// Written by hand: cl_a, cl_b and cl_c still talk on version 1; cl_d ordered.
	expect((await listed()).map((v) => [v.version, v.conversations])).toEqual([
		[2, v2Live],
		[1, 3],
	]);
	await page.getByTestId('toggle-versions').check();
	await page.getByTestId('version-1').waitFor();
	await expect(page.getByTestId('version-1-live').textContent()).resolves.toBe(
		'3 live conversations',
	);
	await expect(page.getByTestId('version-2-live').textContent()).resolves.toBe(
		`${v2Live} live conversations`,
	);
	// Each engine recorded its version when first given it: its first message's minute.
	await expect(page.getByTestId('version-1-seen').textContent()).resolves.toBe(
		`first seen ${seen(V1_AT)}, last seen ${seen(V1_AT)}`,
	);
	await expect(page.getByTestId('version-2-seen').textContent()).resolves.toBe(
		`first seen ${seen(V2_AT)}, last seen ${seen(V2_AT)}`,
	);
	await page.getByTestId('version-1-funnel').click();
	const funnel = page.getByTestId('funnel-of-1');
	// Version 1's funnel alone: four greeted, three reached the menu, one ordered.
	await funnel.locator('[data-testid="funnel-welcome"][data-reached="4"]').waitFor();
	await funnel.locator('[data-testid="funnel-menu"][data-reached="3"]').waitFor();
	await expect(funnel.getByTestId('funnel-apart').textContent()).resolves.toMatch(
		/^4 conversations: 1 completed/,
	);
	await page.getByTestId('version-1-funnel').click();
});

test('Move: the preview per state, then the move, the conversations moved in the store', async () => {
	await page.getByTestId('move-1').click();
	// The map starts from the states of the same name: menu → menu; welcome is not in version 2.
	await expect(page.getByTestId('move-map-menu').inputValue()).resolves.toBe('menu');
	await expect(page.getByTestId('move-map-welcome').inputValue()).resolves.toBe('');
	await page.getByTestId('move-preview').click();
	await page.getByTestId('move-preview-table').waitFor();
	await expect(page.getByTestId('move-row-menu').textContent()).resolves.toBe('menu2moves to menu');
	await expect(page.getByTestId('move-row-welcome').textContent()).resolves.toBe(
		'welcome1stays: finishes on version 1',
	);
	// Nothing written by the preview.
	expect((await listed()).find((v) => v.version === 1)?.conversations).toBe(3);
	await screenshot(page, 'studio-move.png');
	await page.getByTestId('move-apply').click();
	await expect(page.getByTestId('move-report').textContent()).resolves.toContain(
		'Moved 2, left on v1 1, started over 0, not moved 0',
	);
	const store = new SqliteStore(storeFile);
	const check = new ScenarioVersions(store, SHOP_V2);
	expect((await check.list()).map((v) => [v.version, v.conversations])).toEqual([
		[2, 16 + 2],
		[1, 1],
	]);
	// Read back: the two at the menu are on version 2's menu now; cl_a still at version 1's welcome.
	const preview = await check.preview({ from: 1, states: {}, unmapped: 'finish' });
	expect(preview.states).toEqual([{ state: 'welcome', conversations: 1, outcome: 'stays' }]);
	await store.close();
	await page.getByTestId('move-dialog').getByRole('button', { name: 'Close' }).click();
	await expect(page.getByTestId('version-1-live').textContent()).resolves.toBe(
		'1 live conversation',
	);
});

test('the split step on the canvas: its variants and weights; the verdict panel as the runtime reads it', async () => {
	const box = page.getByTestId('variants-hello');
	await expect(box.getByTestId('variant-hello-short').textContent()).resolves.toBe(
		'shortweight 1 · 25%',
	);
	await expect(box.getByTestId('variant-hello-warm').textContent()).resolves.toBe(
		'warmweight 3 · 75%',
	);
	await page.getByTestId('toggle-versions').uncheck();
	await page.getByTestId('toggle-verdict').check();
	const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
	const expected = splitVerdict(
		(['short', 'warm'] as const).map((variant) => ({
			variant,
			...counts[variant],
			weight: counts[variant].clients,
		})),
	);
	expect(counts.short.clients + counts.warm.clients).toBe(24);
	expect(expected.verdict.ready).toBe(false);
	for (const v of expected.variants) {
		const row = page.getByTestId(`verdict-greeting-${v.variant}`);
		await row.waitFor();
		const interval = v.interval ? `${pct(v.interval.low)} to ${pct(v.interval.high)}` : '–';
		await expect(row.locator('td').allTextContents()).resolves.toEqual([
			v.variant,
			String(counts[v.variant as 'short' | 'warm'].clients),
			String(counts[v.variant as 'short' | 'warm'].goal),
			v.conversion === null ? '–' : pct(v.conversion),
			interval,
			pct(v.probabilityBest),
		]);
	}
	await expect(page.getByTestId('verdict-greeting-text').textContent()).resolves.toBe(
		`not enough data yet (about ${expected.verdict.moreClients.toLocaleString('en-US')} more clients needed to tell a difference of 5 points)`,
	);
	await screenshot(page, 'studio-split.png');
	await page.getByTestId('toggle-verdict').uncheck();
});

test('Roll Back to v1 into the file: the diff first, then version 3 holds version 1’s content', async () => {
	await page.getByTestId('toggle-versions').check();
	await page.getByTestId('rollback-1').click();
	const diff = await page.getByTestId('diff').textContent();
	expect(diff).toMatch(/^\+\s+"version": 3,$/m);
	expect(diff).toContain('Hello! Say menu.');
	await expect(page.getByTestId('save-dialog').textContent()).resolves.toContain(
		"version 1's content as the store kept it, saved as version 3",
	);
	await page.getByTestId('confirm-save').click();
	await page.getByTestId('save-dialog').waitFor({ state: 'detached' });
	const written = JSON.parse(readFileSync(scenarioFile, 'utf8')) as typeof SHOP_V1;
	expect(written).toEqual({ ...SHOP_V1, version: 3 });
	await stateBox(page, 'welcome').waitFor();
});

test('a split test built in its form: variants with weights and shares, targets, a goal, End Test; no JSON typed', async () => {
	const form = page.getByTestId('state-form');
	await page.getByTestId('add-state').click();
	await page.getByTestId('state-name').fill('greet');
	await page.getByTestId('rename-state').click();
	await stateBox(page, 'greet').waitFor();
	await page.getByTestId('message-0').fill('Hi!');
	await page.getByTestId('split-on').check();
	await page.getByTestId('split-name').fill('greeting2');
	await page.getByTestId('split-variant-0-name').fill('short');
	await page.getByTestId('split-variant-0-weight').fill('1');
	await page.getByTestId('split-variant-1-name').fill('warm');
	await page.getByTestId('split-variant-1-weight').fill('3');
	await page.getByTestId('split-variant-0-target').selectOption('menu');
	await page.getByTestId('split-variant-1-target').selectOption('welcome');
	// A third variant: the shares follow its weight; removed again.
	await page.getByTestId('split-add-variant').click();
	await expect(form.locator('.row-label').allTextContents()).resolves.toEqual(
		expect.arrayContaining([
			'weight (1.9 % of new clients)',
			'weight (5.6 % of new clients)',
			'weight (92.6 % of new clients)',
		]),
	);
	await page.getByTestId('split-variant-2').getByText('Remove variant').click();
	await page.getByTestId('split-goal-kind').selectOption('tag');
	await page.getByTestId('split-goal-tag').fill('ordered');
	await expect(form.locator('.row-label').allTextContents()).resolves.toEqual(
		expect.arrayContaining(['weight (25 % of new clients)', 'weight (75 % of new clients)']),
	);
	// Drawn as a split with its weights and shares.
	const variant = (name: string) =>
		page.getByTestId('variants-greet').getByTestId(`variant-greet-${name}`).textContent();
	await expect(variant('short')).resolves.toBe('shortweight 1 · 25%');
	// End Test: every new client gets the winner, in the form and on the canvas.
	await page.getByTestId('split-winner').selectOption('warm');
	await expect(form.locator('.row-label').allTextContents()).resolves.toEqual(
		expect.arrayContaining(['weight (0 % of new clients)', 'weight (100 % of new clients)']),
	);
	await expect(variant('short')).resolves.toBe('shortweight 1 · 0%');
	expect(JSON.parse(await editorText(page)).states.greet).toEqual({
		messages: ['Hi!'],
		split: {
			name: 'greeting2',
			variants: [
				{ name: 'short', weight: 1, target: 'menu' },
				{ name: 'warm', weight: 3, target: 'welcome' },
			],
			goal: { tag: 'ordered' },
			winner: 'warm',
		},
	});
	// Valid (warnings, such as a state nothing leads to, apart).
	await expect(page.getByTestId('problems').textContent()).resolves.toContain('No problems');
});
