import type { Plugin } from 'prettier';
import * as babel from 'prettier/plugins/babel';
import * as estree from 'prettier/plugins/estree';
import { format } from 'prettier/standalone';

/**
 * Prettier, in a chunk of its own that the page imports on its first save: it is a quarter of the
 * page's code, and nothing needs it before then.
 */
export const formatJson = (text: string): Promise<string> =>
	format(text, {
		parser: 'json',
		plugins: [babel, estree as Plugin],
		useTabs: true,
		tabWidth: 2,
		printWidth: 100,
	});
