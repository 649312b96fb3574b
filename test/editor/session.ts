import type { Page } from 'playwright-core';

import type { Demo } from './demo';

export const DOCS = 'https://www.npmjs.com/package/n8n-nodes-messaging-bot#';

/**
 * What every part of the editor test shares: one demo (n8n and the emulator, started once: it
 * takes minutes) and one page, read when a test runs, since they exist only after beforeAll.
 */
export interface EditorSession {
	readonly demo: Demo;
	readonly page: Page;
	/** Keeps the links on the page now, for the check that none goes to example.invalid. */
	collectLinks(): Promise<void>;
}
