/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- docs tooling: drives a browser, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

import { startEmulator } from '../test/emulator';
import { exampleWorkflows, prepareN8n } from './lib/demo-setup';
import { freePort, setupOwner, startN8n } from './lib/n8n-process';

/**
 * Retakes the README's screenshots: each example workflow open in a real n8n editor, in
 * Debian's Chromium (apt-get install chromium), driven by playwright-core.
 * `npm run screenshots` writes docs/images/<workflow id>.png.
 */
async function main(): Promise<void> {
	const emulator = await startEmulator();
	const userFolder = mkdtempSync(path.join(tmpdir(), 'mb-shots-'));
	const options = { userFolder, port: await freePort(), brokerPort: await freePort() };
	prepareN8n(options, { baseUrl: emulator.baseUrl, apiKey: emulator.apiKey }, 'whsec_screenshots');
	const n8n = await startN8n(options);
	const browser = await chromium.launch({
		executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
	});
	try {
		const cookie = await setupOwner(n8n.url);
		const [name, value] = cookie.split('=');
		const context = await browser.newContext({ viewport: { width: 1400, height: 800 }, deviceScaleFactor: 1 });
		await context.addCookies([{ name, value, url: n8n.url }]);
		const page = await context.newPage();
		for (const workflow of exampleWorkflows()) {
			await page.goto(`${n8n.url}/workflow/${workflow.id}`, { waitUntil: 'networkidle' });
			await page.waitForSelector('[data-test-id="canvas-node"]', { timeout: 60_000 });
			// n8n's first-visit checklist card would hide part of the canvas: hide its box.
			await page.evaluate(`(() => {
				const title = [...document.querySelectorAll('*')].find((e) => e.children.length === 0 && e.textContent.trim() === 'Production Checklist');
				let box = title ? title.parentElement : null;
				while (box && box.getBoundingClientRect().height < 200) box = box.parentElement;
				if (box) box.style.display = 'none';
			})()`);
			// Let the canvas settle (fit-to-view animation) before the shot.
			await page.waitForTimeout(1_500);
			const file = path.join(__dirname, '..', 'docs', 'images', `${workflow.id}.png`);
			await page.screenshot({ path: file });
			process.stdout.write(`${file}\n`);
		}
	} finally {
		await browser.close();
		await n8n.stop();
		await emulator.close();
		rmSync(userFolder, { recursive: true, force: true });
	}
}

main().catch((error: Error) => {
	process.stderr.write(`${error.stack}\n`);
	process.exit(1);
});
