import type { Plugin } from 'prettier';
import * as babel from 'prettier/plugins/babel';
import * as estree from 'prettier/plugins/estree';
import { format } from 'prettier/standalone';

/**
 * Prettier, in a script of its own (studio-format.js) that the page loads on its first save: it is
 * a quarter of the page's code, and nothing needs it before then.
 */
(window as { studioFormat?: (text: string) => Promise<string> }).studioFormat = (text) =>
	format(text, {
		parser: 'json',
		plugins: [babel, estree as Plugin],
		useTabs: true,
		tabWidth: 2,
		printWidth: 100,
	});
