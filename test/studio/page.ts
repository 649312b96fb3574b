import type { Locator, Page } from 'playwright-core';

import { pageDir } from '../../runtime/studio/server/command';
import { startStudio, type RunningStudio } from '../../runtime/studio/server/server';
import { launchChromium } from '../helpers/chromium';

/** A screenshot of the studio into the browser tests' folder (docs/images/ with MB_DOC_IMAGES=1). */
export { saveScreenshot as screenshot } from '../helpers/chromium';

/** Chromium on a fresh profile, as the editor test opens it. */
export async function openBrowser(): Promise<{ page: Page; close(): Promise<void> }> {
	const { context, close } = await launchChromium();
	return { page: context.pages()[0] ?? (await context.newPage()), close };
}

export const stateBox = (page: Page, name: string): Locator => page.getByTestId(`state-${name}`);

/** The JSON editor's whole text (CodeMirror draws only the lines in view, so it is read from its state). */
export async function editorText(page: Page): Promise<string> {
	await page.locator('.cm-content').waitFor({ state: 'attached' });
	return page.evaluate<string>(`(() => {
		const content = document.querySelector('.cm-content');
		const view = content?.cmTile?.root?.view ?? content?.cmView?.rootView?.view;
		return view ? view.state.doc.toString() : '';
	})()`);
}

/** Replaces the JSON editor's text as a designer would: select all, type (paste) the new text. */
export async function typeJson(page: Page, text: string): Promise<void> {
	await page.getByTestId('tab-json').click();
	await page.locator('.cm-content').click();
	await page.keyboard.press('Control+a');
	await page.keyboard.insertText(text);
}

/** Opens a file of the studio's list and waits until its states are drawn. */
export async function openFile(page: Page, file: string, states: string[]): Promise<number> {
	const began = Date.now();
	await page.getByTestId('file-select').selectOption(file);
	for (const name of states) await stateBox(page, name).waitFor({ state: 'attached' });
	return Date.now() - began;
}

/** Drags from a state's lower handle to another state, as a designer connects two states. */
export async function connectStates(page: Page, from: string, to: string): Promise<void> {
	const handle = stateBox(page, from).locator('.react-flow__handle-bottom');
	// Dropped on the target box's own handle: a point near its edge may lie under an arrow's label.
	const target = stateBox(page, to).locator('.react-flow__handle-top');
	// The view may still be moving (a fit-view animation on a busy machine): wait until it rests.
	let a = await handle.boundingBox();
	let b = await target.boundingBox();
	for (let i = 0; i < 40; i++) {
		await page.waitForTimeout(100);
		const [a2, b2] = [await handle.boundingBox(), await target.boundingBox()];
		const still = JSON.stringify([a, b]) === JSON.stringify([a2, b2]);
		[a, b] = [a2, b2];
		if (still && a && b) break;
	}
	if (!a || !b) throw new Error(`${from} or ${to} is not on screen`);
	await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
	await page.mouse.down();
	await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2 + 12, { steps: 12 });
	await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 4 });
	await page.mouse.up();
}

/** The studio on these files in Chromium at 1280×720, opened; "Leave the unsaved changes?": yes. */
export async function studioIn1280(
	files: string[],
	root: string,
): Promise<{ studio: RunningStudio; page: Page; close(): Promise<void> }> {
	const studio = await startStudio({ files, root, pageDir: pageDir() });
	const { page, close } = await openBrowser();
	await page.setViewportSize({ width: 1280, height: 720 });
	page.on('dialog', (d) => void d.accept());
	await page.goto(studio.url);
	return { studio, page, close };
}
