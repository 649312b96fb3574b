import { selectors, type Locator, type Page } from 'playwright-core';

import { launchChromium, saveScreenshot } from '../helpers/chromium';

/** n8n's editor marks its elements with data-test-id. */
selectors.setTestIdAttribute('data-test-id');

export type Browser = { page: Page; close(): Promise<void> };

/**
 * Debian's Chromium (apt-get install chromium), headless, with a fresh profile and nothing that
 * reaches out to the network by itself; logged in to n8n with the owner's session cookie.
 */
export async function openBrowser(n8nUrl: string, cookie: string): Promise<Browser> {
	const { context, close } = await launchChromium();
	const [name, value] = cookie.split('=');
	await context.addCookies([{ name, value, url: n8nUrl }]);
	const page = context.pages()[0] ?? (await context.newPage());
	// Leaving a workflow with unsaved changes asks first: leave.
	page.on('dialog', (dialog) => void dialog.accept());
	return { page, close };
}

/** Opens a workflow on the canvas and waits for its nodes. */
export async function openWorkflow(page: Page, n8nUrl: string, id: string): Promise<void> {
	await page.goto(`${n8nUrl}/workflow/${id}`, { waitUntil: 'networkidle' });
	await page.getByTestId('canvas-node').first().waitFor({ timeout: 60_000 });
	// The checklist card comes a moment after the canvas.
	await page
		.getByText('Production Checklist')
		.first()
		.waitFor({ timeout: 5_000 })
		.catch(() => undefined);
	await hideChecklist(page);
}

/** n8n's first-visit checklist card hides part of the canvas in screenshots. */
async function hideChecklist(page: Page): Promise<void> {
	await page.evaluate(`(() => {
		const title = [...document.querySelectorAll('*')].find((e) => e.children.length === 0 && e.textContent.trim() === 'Production Checklist');
		let box = title ? title.parentElement : null;
		while (box && box.getBoundingClientRect().height < 200) box = box.parentElement;
		if (box) box.style.display = 'none';
	})()`);
}

export function canvasNode(page: Page, name: string): Locator {
	return page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
}

/** Opens a node's panel (NDV) from the canvas. */
export async function openNode(page: Page, name: string): Promise<Locator> {
	await canvasNode(page, name).dblclick();
	const ndv = page.getByTestId('ndv');
	await ndv.waitFor();
	await page.getByTestId('node-parameters').waitFor();
	return ndv;
}

export async function closeNode(page: Page): Promise<void> {
	await page.getByTestId('ndv-close-button').click();
	await page.getByTestId('ndv').waitFor({ state: 'hidden' });
}

/** Every link the page shows, as absolute URLs. */
export async function links(page: Page): Promise<string[]> {
	return await page.$$eval('a[href]', (anchors) =>
		anchors.map((a) => (a as unknown as { href: string }).href),
	);
}

/** The names a resource locator's list offers, once opened. */
export async function pickerItems(page: Page, parameter: string): Promise<string[]> {
	await page.getByTestId(`resource-locator-${parameter}`).getByTestId('rlc-input').click();
	const items = page.getByTestId('rlc-item');
	await items.first().waitFor();
	return (await items.allTextContents()).map((t) => t.trim());
}

export async function pick(page: Page, name: string): Promise<void> {
	await page.getByTestId('rlc-item').filter({ hasText: name }).first().click();
}

/** Clicks the panel's "Execute step" and waits for the output panel to show data or an error. */
export async function executeStep(page: Page, waitFor = 60_000): Promise<Locator> {
	await page.getByTestId('node-execute-button').click();
	const output = page.getByTestId('output-panel');
	// The display modes show once there is data (an error included).
	await output
		.locator('[data-test-id="radio-button-json"], [data-test-id="node-error-message"]')
		.first()
		.waitFor({ timeout: waitFor });
	return output;
}

/** The output panel's items as JSON text, once it holds `expected` when given. */
export async function outputJson(page: Page, waitFor = 30_000, expected?: string): Promise<string> {
	const output = page.getByTestId('output-panel');
	await output.getByTestId('radio-button-json').click({ timeout: waitFor });
	const data = output.getByTestId('ndv-data-container');
	await data.waitFor();
	// The JSON view fills in after it shows (and, on a node that ran before, after the new run
	// replaces the old output): wait for text rather than a fixed moment.
	const deadline = Date.now() + waitFor;
	for (;;) {
		await page.waitForTimeout(300);
		const text = String(await data.textContent());
		// n8n shows "Executing node..." in the panel until the run's output replaces it, and asks
		// to execute the step while the run has not begun.
		const running =
			text.trim() === '' || /^\s*Executing node|Execute step to view output data/.test(text);
		const ready = expected === undefined ? !running : text.includes(expected);
		if (ready || Date.now() > deadline) return text;
	}
}

/** Shows a parameter's help: n8n puts it in a tooltip on the info icon of its label. */
export async function showHelp(panel: Locator, label: string): Promise<void> {
	const input = panel.getByTestId('input-label').filter({ hasText: label }).first();
	await input.scrollIntoViewIfNeeded();
	await input.hover();
	// The icon shows while the label is hovered; its tooltip after a moment on the icon.
	await input.locator('[class*="infoIcon"], [class*="info-icon"]').first().hover();
}

/** A screenshot of the page into `dir` (the browser tests' folder unless said). */
export async function screenshot(page: Page, file: string, dir?: string): Promise<string> {
	await page.waitForTimeout(800);
	return await saveScreenshot(page, file, dir);
}
