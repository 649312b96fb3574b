import type { Draft } from './draft';

/**
 * A scenario file's text as the repository's formatter writes it (Prettier, tabs, 100 columns),
 * so a saved file differs from the one opened only where the scenario changed. Prettier is a chunk
 * of its own (format-prettier.ts), loaded the first time it is needed.
 */
export async function formatScenario(draft: Draft): Promise<string> {
	const { formatJson } = await import('./format-prettier');
	return await formatJson(JSON.stringify(draft, null, 2));
}
