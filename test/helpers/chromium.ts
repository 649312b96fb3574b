/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- browser test tooling, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { chromium, type BrowserContext } from 'playwright-core';

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
