import type { Draft } from './draft';
import { loadScript } from './load-script';

/**
 * A scenario file's text as the repository's formatter writes it (Prettier, tabs, 100 columns),
 * so a saved file differs from the one opened only where the scenario changed. Prettier comes
 * from its own script (format-entry.ts), loaded the first time it is needed.
 */
export async function formatScenario(draft: Draft): Promise<string> {
	return (await formatter())(JSON.stringify(draft, null, 2));
}

type Format = (text: string) => Promise<string>;

const formatter = () => loadScript<Format>('/studio-format.js', 'studioFormat');
