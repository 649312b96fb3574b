import type { Page } from 'playwright-core';

import type { Demo } from './demo';

// The Docs links the nodes and credentials show, from where they take them: a renamed heading
// fails here and in test/unit/doc-links.test.ts, never passes on a string written twice.
export { DOCS, PACKAGE_PAGE } from '../../nodes/shared/documentation';

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
