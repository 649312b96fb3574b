/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- docs tooling: drives a browser, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startEmulator } from '../test/emulator';
import { openBrowser, openWorkflow, screenshot } from '../test/editor/browser';
import { DOC_IMAGES } from '../test/helpers/chromium';
import { exampleWorkflows, prepareN8n } from './lib/demo-setup';
import { freePort, setupOwner, startN8n } from './lib/n8n-process';

/**
 * Retakes the screenshots of the example workflows only, quicker than the editor test
 * (`npm run test:editor`, which retakes every screenshot of the README): each example workflow
 * open in a real n8n editor, in Debian's Chromium (apt-get install chromium), driven by
 * playwright-core. `npm run screenshots` writes docs/images/<workflow id>.png.
 */
async function main(): Promise<void> {
	const emulator = await startEmulator();
	const userFolder = mkdtempSync(path.join(tmpdir(), 'mb-shots-'));
	const options = { userFolder, port: await freePort(), brokerPort: await freePort() };
	prepareN8n(options, { baseUrl: emulator.baseUrl, apiKey: emulator.apiKey }, 'whsec_screenshots');
	const n8n = await startN8n(options);
	try {
		const browser = await openBrowser(n8n.url, await setupOwner(n8n.url));
		try {
			for (const workflow of exampleWorkflows()) {
				await openWorkflow(browser.page, n8n.url, workflow.id);
				process.stdout.write(
					`${await screenshot(browser.page, `${workflow.id}.png`, DOC_IMAGES)}\n`,
				);
			}
		} finally {
			await browser.close();
		}
	} finally {
		await n8n.stop();
		await emulator.close();
		rmSync(userFolder, { recursive: true, force: true });
	}
}

main().catch((error: Error) => {
	process.stderr.write(`${error.stack}\n`);
	process.exit(1);
});
