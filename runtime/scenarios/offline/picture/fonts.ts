import { parse, type Font } from 'opentype.js';

import { getOrCreate } from '../../../per-process';
import { fontFile } from './files';

/**
 * The PNG picture's fonts (Noto, SIL Open Font License; cut down by scripts/picture-fonts.ts):
 * which file may draw a code point, tried in order, each read and parsed on first need, so a
 * Latin scenario never loads the Chinese font.
 */

export interface LoadedFont {
	file: string;
	font: Font;
	/** Drawn thicker for bold: the file has no bold face. */
	fauxBold: boolean;
}

type Blocks = ReadonlyArray<readonly [number, number]>;

const EMOJI: Blocks = [
	[0x2190, 0x21ff],
	[0x2300, 0x27bf],
	[0x2b00, 0x2bff],
	[0x3030, 0x303d],
	[0x3297, 0x3299],
	[0x1f000, 0x1faff],
];

/** After the Latin face (sans or sans-bold, which is always tried first). */
const FALLBACKS: ReadonlyArray<{ file: string; blocks: Blocks }> = [
	{
		file: 'arabic.ttf',
		blocks: [
			[0x600, 0x6ff],
			[0x750, 0x77f],
			[0xfb50, 0xfdff],
			[0xfe70, 0xfeff],
		],
	},
	{
		file: 'hebrew.ttf',
		blocks: [
			[0x590, 0x5ff],
			[0xfb1d, 0xfb4f],
		],
	},
	{
		file: 'cjk.otf',
		blocks: [
			[0x2e80, 0x30ff],
			[0x3130, 0x318f],
			[0x3190, 0x9fff],
			[0xac00, 0xd7af],
			[0xf900, 0xfaff],
			[0xff00, 0xffef],
		],
	},
	{ file: 'emoji.ttf', blocks: EMOJI },
	{ file: 'math.ttf', blocks: [[0x2190, 0x23ff]] },
	{ file: 'symbols.ttf', blocks: [[0x2190, 0x2bff]] },
];

const parsed = new Map<string, Font>();

/** A font, parsed on first need; its glyphs' outlines are read when drawn (lowMemory). */
function load(file: string): Font {
	return getOrCreate(parsed, file, () => parse(fontFile(file), { lowMemory: true }));
}

const within = (blocks: Blocks, code: number) => blocks.some(([a, b]) => code >= a && code <= b);

/** The first font that draws `char`; undefined when none does. */
export function fontFor(char: string, bold: boolean): LoadedFont | undefined {
	const code = char.codePointAt(0) ?? 0;
	const latin = bold ? 'sans-bold.ttf' : 'sans.ttf';
	if (load(latin).charToGlyphIndex(char) > 0)
		return { file: latin, font: load(latin), fauxBold: false };
	for (const { file, blocks } of FALLBACKS)
		if (within(blocks, code) && load(file).charToGlyphIndex(char) > 0)
			return { file, font: load(file), fauxBold: bold };
	return undefined;
}
