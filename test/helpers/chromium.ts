/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- browser test tooling, never loaded by n8n */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { chromium, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's Chromium (apt-get install chromium; another build through CHROMIUM_PATH), headless,
 * with a fresh profile and nothing that reaches out to the network by itself.
 */
export async function launchChromium(): Promise<{
	context: BrowserContext;
	close(): Promise<void>;
}> {
	const profile = mkdtempSync(path.join(tmpdir(), 'mb-chromium-'));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
		headless: true,
		viewport: { width: 1400, height: 860 },
		deviceScaleFactor: 1,
		args: [
			'--headless',
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		],
	});
	return {
		context,
		close: async () => {
			await context.close();
			rmSync(profile, { recursive: true, force: true });
		},
	};
}

/** The pictures the README and the docs pages show. */
export const DOC_IMAGES = path.join(__dirname, '..', '..', 'docs', 'images');

/**
 * Where the browser tests put their screenshots: `docs/images/` when asked to retake the docs'
 * pictures (`MB_DOC_IMAGES=1`), else a folder under the system's temporary one, so that a test run
 * never changes the files in git (a run on a busy machine catches views before they settle).
 */
function screenshotsDir(): string {
	if (process.env.MB_DOC_IMAGES === '1') return DOC_IMAGES;
	const dir = path.join(tmpdir(), 'messaging-bot-screenshots');
	mkdirSync(dir, { recursive: true });
	return dir;
}

/** A screenshot of the page into `dir` (the browser tests' folder unless said): its path. */
export async function saveScreenshot(
	page: Page,
	file: string,
	dir = screenshotsDir(),
): Promise<string> {
	const target = path.join(dir, file);
	await page.screenshot({ path: target });
	return target;
}
