/* eslint-disable @n8n/community-nodes/no-restricted-imports -- studio test tooling: files, a local server and a browser, never loaded by n8n */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Page } from 'playwright-core';

import type { RunningStudio } from '../../runtime/studio/server/server';
import { connectStates, openFile, stateBox, studioIn1280 } from './page';

/**
 * The canvas at 1280×720 as a designer meets it: a state added while zoomed in is brought into
 * view, a box moved by hand stays where it was put when an arrow is drawn, and a state picked in
 * a whole large scenario is drawn at a size its text reads at.
 */

const root = mkdtempSync(path.join(tmpdir(), 'mb-studio-canvas-'));
const chain = path.join(root, 'chain.json');
const large = path.join(root, 'large.json');
let studio: RunningStudio;
let page: Page;
let close: () => Promise<void>;

/** A scenario of `count` states, each leading to the next, the last an end. */
function steps(id: string, count: number) {
	const states: Record<string, unknown> = {};
	for (let i = 0; i < count; i++)
		states[`s${i}`] =
			i === count - 1
				? { messages: [`Step ${i}`], end: true }
				: { messages: [`Step ${i}`], on: [{ match: { any: true }, target: `s${i + 1}` }] };
	return { id, version: 1, start: 's0', states };
}

beforeAll(async () => {
	writeFileSync(chain, JSON.stringify(steps('chain', 3)));
	writeFileSync(large, JSON.stringify(steps('large', 40)));
	({ studio, page, close } = await studioIn1280([chain, large], root));
	await stateBox(page, 's2').waitFor();
});
afterAll(async () => {
	await close?.();
	await studio?.close();
	rmSync(root, { recursive: true, force: true });
});

/** Each box's place on the graph (React Flow's transform), by state. */
const positions = () =>
	page.evaluate<Record<string, string>>(`Object.fromEntries(
		[...document.querySelectorAll('.react-flow__node-state')].map((n) => [n.dataset.id, n.style.transform]),
	)`);

test('5: a state added while zoomed right in is brought into view', async () => {
	// As far in as the view goes (the button turns off there).
	const zoomIn = page.locator('.react-flow__controls-zoomin');
	for (let i = 0; i < 10 && (await zoomIn.isEnabled()); i++) await zoomIn.click();
	await page.getByTestId('add-state').click();
	await stateBox(page, 'new_state').waitFor({ state: 'attached' });
	await page.waitForTimeout(600);
	const view = await page.locator('.react-flow').first().boundingBox();
	const added = await stateBox(page, 'new_state').boundingBox();
	if (!view || !added) throw new Error('the graph is not on screen');
	expect(added.y >= view.y && added.y + added.height <= view.y + view.height).toBe(true);
	expect(added.x >= view.x && added.x + added.width <= view.x + view.width).toBe(true);
});

test('5: a box moved by hand stays where it was put when an arrow is drawn', async () => {
	await page.locator('.react-flow__controls-fitview').click();
	await page.waitForTimeout(400);
	const box = await stateBox(page, 's0').boundingBox();
	if (!box) throw new Error('s0 is not on screen');
	await page.mouse.move(box.x + 20, box.y + 10);
	await page.mouse.down();
	await page.mouse.move(box.x + 160, box.y + 10, { steps: 8 });
	await page.mouse.up();
	const moved = await positions();
	const arrows = await page.locator('.react-flow__edge').count();
	await connectStates(page, 's0', 's2');
	await page.locator('.react-flow__edge').nth(arrows).waitFor({ state: 'attached' });
	await page.waitForTimeout(400);
	const after = await positions();
	for (const [state, place] of Object.entries(moved))
		expect([state, after[state]]).toEqual([state, place]);
});

test('5: a state picked in a whole large scenario at 1280×720 is drawn at a size its text reads at', async () => {
	await openFile(page, large, ['s0', 's39']);
	await page.locator('.react-flow__controls-fitview').click();
	// The view at rest first (a busy machine draws the fit slowly): picked while it moves, the
	// zoom read may still be the old one.
	const viewport = page.locator('.react-flow__viewport');
	let [before, now] = ['', await viewport.getAttribute('style')];
	for (let i = 0; i < 40 && before !== now; i++) {
		await page.waitForTimeout(150);
		[before, now] = [now ?? '', await viewport.getAttribute('style')];
	}
	await stateBox(page, 's20').click();
	await page.getByTestId('state-name').and(page.locator('[value="s20"]')).waitFor();
	// The text's size on screen: its font size times the box's scale, once the view has moved.
	const onScreen = () =>
		page.evaluate<number>(`(() => {
			const box = document.querySelector('[data-testid="state-s20"]');
			const scale = box.getBoundingClientRect().width / box.offsetWidth;
			const text = box.querySelector('.state-message') ?? box;
			return parseFloat(getComputedStyle(text).fontSize) * scale;
		})()`);
	let px = await onScreen();
	for (let i = 0; i < 20 && px < 10; i++) {
		await page.waitForTimeout(150);
		px = await onScreen();
	}
	expect(px).toBeGreaterThanOrEqual(10);
});
