/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- studio test tooling: files, a local server and a browser, never loaded by n8n */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Page } from 'playwright-core';

import { main as cli } from '../../runtime/cli/scenario';
import { pageDir } from '../../runtime/studio/server/command';
import { startStudio, type RunningStudio } from '../../runtime/studio/server/server';
import { openBrowser, screenshot, stateBox } from './page';

/**
 * The pizza-shop bot built from New in Debian's Chromium, as a designer would, without the JSON
 * tab: a greeting with a menu (order / opening hours / talk to a person), the size from a list, the
 * address, a tag on the way, a fallback, a hand-off, an end; played in the preview; saved to a new
 * file in a new folder; reopened with the boxes where they were; the file valid for the CLI
 * (last: the menu step is the format's). Prints the clicks and the time taken.
 */

const root = mkdtempSync(path.join(tmpdir(), 'mb-studio-builder-'));
const saved = path.join(root, 'shop', 'pizza.json');
let studio: RunningStudio;
let page: Page;
let close: () => Promise<void>;
let clicks = 0;

beforeAll(async () => {
	studio = await startStudio({ files: [], root, pageDir: pageDir() });
	({ page, close } = await openBrowser());
	await page.setViewportSize({ width: 1280, height: 720 });
	// "Leave the unsaved changes?" (New, then Open): yes.
	page.on('dialog', (d) => void d.accept());
	await page.goto(studio.url);
});
afterAll(async () => {
	await close?.();
	await studio?.close();
	rmSync(root, { recursive: true, force: true });
});

/** What a designer does, counted: a click, a pick from a list, a tick, typing into a field. */
const click = async (id: string) => (clicks++, await page.getByTestId(id).click());
const pick = async (id: string, value: string) => (
	clicks++,
	await page.getByTestId(id).selectOption(value)
);
const tick = async (id: string) => (clicks++, await page.getByTestId(id).check());
const type = async (id: string, text: string) => (clicks++, await page.getByTestId(id).fill(text));

async function addState(name: string, message: string) {
	await click('add-state');
	await type('state-name', name);
	await click('rename-state');
	await stateBox(page, name).waitFor();
	await type('message-0', message);
}

async function selectState(name: string) {
	clicks++;
	await stateBox(page, name).click();
	await page
		.getByTestId('state-name')
		.and(page.locator(`[value="${name}"]`))
		.waitFor();
}

/** Each box's place on the graph (React Flow's transform), by state. */
const positions = () =>
	page.evaluate<Record<string, string>>(`Object.fromEntries(
		[...document.querySelectorAll('.react-flow__node-state')].map((n) => [n.dataset.id, n.style.transform]),
	)`);

test('builds the pizza-shop bot from New without JSON, plays it, saves it to a new file, reopens it as it was', async () => {
	const began = Date.now();
	await click('new');
	await click('template-blank');
	await stateBox(page, 'welcome').waitFor();
	// The states first, so the menu's options can lead to them.
	await addState('ask_size', 'Which size: small, medium or large?');
	await tick('capture-on');
	await type('capture-into', 'size');
	await pick('capture-check', 'oneOf');
	await type('capture-oneof', 'small, medium, large');
	await pick('capture-target-actions-add', 'addTags');
	await type('capture-target-actions-0-tags', 'pizza-order');
	await addState('ask_address', 'Where should we bring it?');
	await tick('capture-on');
	await type('capture-into', 'address');
	await addState('done', 'A {{vars.size}} pizza to {{vars.address}}: on its way!');
	await tick('field-end');
	await addState('hours', 'We are open from 11:00 to 23:00, every day.');
	await tick('field-end');
	await addState('human', 'A colleague will answer you here.');
	await pick('state-actions-add', 'handoff');
	for (const [state, target] of [
		['ask_size', 'ask_address'],
		['ask_address', 'done'],
	]) {
		await selectState(state);
		await pick('capture-target', target);
		await pick('capture-giveup', 'human');
	}
	// The greeting: a menu of three options, each leading to its state.
	await selectState('welcome');
	await page.getByTestId('field-end').uncheck();
	clicks++;
	await type('message-0', 'Welcome to Pizza Roma!');
	await tick('menu-on');
	await type('menu-text', 'What would you like?');
	const options: Array<[string, string, string]> = [
		['Order a pizza', 'order, pizza', 'ask_size'],
		['Opening hours', 'hours, open', 'hours'],
		['Talk to a person', 'human, person', 'human'],
	];
	for (const [i, [label, synonyms, target]] of options.entries()) {
		if (i > 0) await click('menu-add-option');
		await type(`menu-option-${i}-label`, label);
		await type(`menu-option-${i}-synonyms`, synonyms);
		await pick(`menu-option-${i}-target`, target);
	}
	// A fallback for the whole scenario, in the top form.
	clicks++;
	await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
	await type('field-fallback', 'Sorry, I did not get that.');
	await expect(page.getByTestId('problems').textContent()).resolves.toContain('No problems');

	// A box moved by hand keeps its place.
	const box = await stateBox(page, 'hours').boundingBox();
	if (!box) throw new Error('hours is not on screen');
	await page.mouse.move(box.x + 20, box.y + 10);
	await page.mouse.down();
	await page.mouse.move(box.x + 10, box.y + 95, { steps: 8 });
	await page.mouse.up();
	clicks++;
	await stateBox(page, 'welcome').click(); // for the picture: the menu's form
	await screenshot(page, 'studio-builder-1280.png');

	// Played in the preview.
	await click('tab-chat');
	for (const [message, state] of [
		['hi', 'welcome'],
		['pizza', 'ask_size'],
		['large', 'ask_address'],
		['1 Main Street', 'done'],
	]) {
		await type('chat-input', message);
		await page.getByTestId('chat-input').press('Enter');
		await page.locator(`[data-testid="state-${state}"].current`).waitFor();
	}
	expect(
		await page
			.getByTestId('bubble-bot')
			.filter({ hasText: 'A large pizza to 1 Main Street' })
			.count(),
	).toBe(1);

	// Saved to a new file, in a folder not there yet.
	await click('save');
	await type('path-input', 'shop/pizza.json');
	await click('path-confirm');
	await click('confirm-save');
	await page.getByTestId('save-dialog').waitFor({ state: 'detached' });
	expect(existsSync(saved)).toBe(true);
	expect(existsSync(path.join(root, 'shop', 'pizza.layout.json'))).toBe(true);
	const before = await positions();

	// Reopened (after a New in between): the same boxes in the same places.
	await click('new');
	await click('template-faq');
	await click('open');
	clicks++;
	await page.getByTestId('folder-files').getByText('shop/pizza.json').click();
	await stateBox(page, 'hours').waitFor();
	await page.waitForTimeout(300);
	expect(await positions()).toEqual(before);
	const ms = Date.now() - began;
	await page.setViewportSize({ width: 1600, height: 1000 });
	await page.locator('.react-flow__controls-fitview').click();
	await stateBox(page, 'welcome').click();
	await page.waitForTimeout(400);
	await screenshot(page, 'studio-builder-1600.png');
	process.stdout.write(`Pizza-shop bot built from New: ${clicks} clicks, ${ms} ms\n`);

	// Last: the file passes validate (the menu step is the format's).
	let out = '';
	const code = await cli(['validate', saved], {
		lines: (async function* () {})(),
		out: (t) => (out += t),
		err: (t) => (out += t),
		interactive: false,
	});
	expect({ code, out }).toEqual({ code: 0, out: `ok ${saved}: my-bot v1, 6 states\n` });
	const json = JSON.parse(readFileSync(saved, 'utf8')) as { states: Record<string, unknown> };
	expect(Object.keys(json.states).sort()).toEqual(
		['ask_address', 'ask_size', 'done', 'hours', 'human', 'welcome'].sort(),
	);
});
