/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- build tooling, never loaded by n8n */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * `tsx scripts/picture-fonts.ts <noto-emoji folder>`: writes the PNG picture's fonts
 * (runtime/scenarios/offline/picture/fonts/*.ttf) and their table of characters (font-table.ts).
 * Sources, all under the SIL Open Font License: Debian's fonts-noto-core and fonts-noto-cjk, and
 * the files of the npm package @fontsource/noto-emoji (monochrome), cut down with fontTools'
 * pyftsubset (Debian's python3-fonttools python3-brotli). Run once when the fonts change; the
 * outputs are committed.
 */

const NOTO = '/usr/share/fonts/truetype/noto';
/** Debian's Python, where python3-fonttools is installed (another python3 may come first on PATH). */
const PYTHON = process.env.PYTHON ?? '/usr/bin/python3';
const CJK = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
const CJK_SC = 2; // the collection's Simplified Chinese face: Han, kana and Hangul
const out = path.resolve(__dirname, '../runtime/scenarios/offline/picture/fonts');

/** Code points of a legacy double-byte set's rows, through the platform's decoder. */
function legacy(encoding: string, lead: [number, number], trail: [number, number]): number[] {
	const decoder = new TextDecoder(encoding);
	const found: number[] = [];
	for (let a = lead[0]; a <= lead[1]; a++)
		for (let b = trail[0]; b <= trail[1]; b++) {
			const text = decoder.decode(new Uint8Array([a, b]));
			const code = text.codePointAt(0) ?? 0;
			if (text.length === 1 && code > 0x2e80 && code !== 0xfffd) found.push(code);
		}
	return found;
}

const range = (from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, i) => from + i);

const LATIN = [
	...range(0x20, 0x7e),
	...range(0xa0, 0x2ff),
	...range(0x300, 0x36f),
	...range(0x370, 0x3ff),
	...range(0x400, 0x52f),
	...range(0x1e00, 0x1fff),
	...range(0x2000, 0x206f),
	...range(0x20a0, 0x20cf),
	...range(0x2100, 0x215f),
];
const SYMBOLS = [...range(0x2190, 0x23ff), ...range(0x2500, 0x27bf), ...range(0x2b00, 0x2bff)];

interface Cut {
	file: string;
	source: string;
	unicodes: number[] | '*';
	number?: number;
	features?: string;
}

function cuts(emojiDir: string): Cut[] {
	const han = new Set([
		...legacy('gb18030', [0xb0, 0xd7], [0xa1, 0xfe]), // GB 2312 level 1: common Chinese
		...legacy('shift_jis', [0x88, 0x98], [0x40, 0xfc]), // JIS X 0208 level 1: common kanji
	]);
	const hangul = legacy('euc-kr', [0xb0, 0xc8], [0xa1, 0xfe]); // KS X 1001's 2,350 syllables
	// The package's "emoji" file holds every emoji its numbered files split between them.
	const emoji = [
		{
			file: 'emoji.ttf',
			source: path.join(emojiDir, 'noto-emoji-emoji-400-normal.woff2'),
			unicodes: '*' as const,
		},
	];
	return [
		{ file: 'sans.ttf', source: `${NOTO}/NotoSans-Regular.ttf`, unicodes: LATIN, features: 'kern' },
		{
			file: 'sans-bold.ttf',
			source: `${NOTO}/NotoSans-Bold.ttf`,
			unicodes: LATIN,
			features: 'kern',
		},
		{
			file: 'math.ttf',
			source: `${NOTO}/NotoSansMath-Regular.ttf`,
			unicodes: SYMBOLS,
			features: '',
		},
		{
			file: 'symbols.ttf',
			source: `${NOTO}/NotoSansSymbols2-Regular.ttf`,
			unicodes: SYMBOLS,
			features: '',
		},
		{
			file: 'arabic.ttf',
			source: `${NOTO}/NotoSansArabic-Regular.ttf`,
			unicodes: [
				...range(0x600, 0x6ff),
				...range(0x750, 0x77f),
				...range(0xfb50, 0xfdff),
				...range(0xfe70, 0xfeff),
			],
			features: '*',
		},
		{
			file: 'hebrew.ttf',
			source: `${NOTO}/NotoSansHebrew-Regular.ttf`,
			unicodes: [...range(0x590, 0x5ff), ...range(0xfb1d, 0xfb4f)],
			features: '*',
		},
		{
			file: 'cjk.otf',
			source: CJK,
			number: CJK_SC,
			unicodes: [
				...range(0x3000, 0x30ff),
				...range(0x3130, 0x318f),
				...range(0xff00, 0xffef),
				...han,
				...hangul,
			],
			features: '',
		},
		...emoji,
	];
}

/** The code points a font file maps, as [from, to] ranges. */
function mapped(file: string): Array<[number, number]> {
	const script = `from fontTools.ttLib import TTFont\nprint(' '.join(str(c) for c in sorted(TTFont(${JSON.stringify(file)}).getBestCmap())))`;
	const codes = execFileSync(PYTHON, ['-c', script], { encoding: 'utf8' })
		.trim()
		.split(' ')
		.map(Number);
	const ranges: Array<[number, number]> = [];
	for (const c of codes) {
		const last = ranges[ranges.length - 1];
		if (last && last[1] === c - 1) last[1] = c;
		else ranges.push([c, c]);
	}
	return ranges;
}

function main(): void {
	const emojiDir = process.argv[2];
	if (!emojiDir)
		throw new Error('Usage: tsx scripts/picture-fonts.ts <@fontsource/noto-emoji files folder>');
	const dir = mkdtempSync(path.join(tmpdir(), 'mb-fonts-'));
	rmSync(out, { recursive: true, force: true });
	execFileSync('mkdir', ['-p', out]);
	const table: Array<{ file: string; ranges: Array<[number, number]> }> = [];
	try {
		for (const cut of cuts(emojiDir)) {
			const list = path.join(dir, 'unicodes.txt');
			if (cut.unicodes !== '*')
				writeFileSync(list, cut.unicodes.map((c) => c.toString(16)).join(','));
			const target = path.join(out, cut.file);
			execFileSync(PYTHON, [
				'-m',
				'fontTools.subset',
				cut.source,
				cut.unicodes === '*' ? '--unicodes=*' : `--unicodes-file=${list}`,
				`--output-file=${target}`,
				`--layout-features=${cut.features ?? '*'}`,
				'--no-hinting',
				'--drop-tables+=DSIG,STAT,MATH',
				'--name-IDs=0,1,2,3,4,5,6,13,14',
				...(cut.number === undefined ? [] : [`--font-number=${cut.number}`]),
			]);
			table.push({ file: cut.file, ranges: mapped(target) });
			process.stdout.write(`${cut.file}: ${statSync(target).size} bytes\n`);
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
	writeFileSync(
		path.resolve(out, '../font-table.ts'),
		[
			'/* Written by scripts/picture-fonts.ts: do not edit. */',
			'',
			'/** Each font file in fonts/ (tried in this order) with the code points it draws. */',
			`export const FONT_TABLE: ReadonlyArray<{ file: string; ranges: ReadonlyArray<readonly [number, number]> }> = ${JSON.stringify(table)};`,
			'',
		].join('\n'),
	);
}

main();
