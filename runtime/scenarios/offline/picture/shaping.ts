import bidiFactory from 'bidi-js';
import type { Glyph } from 'opentype.js';

import { getOrCreate } from '../../../per-process';
import { fontFor, type LoadedFont } from './fonts';

/**
 * A line of text as glyphs in the order they are drawn, left to right: the Unicode bidirectional
 * algorithm (bidi-js) gives each character its level, characters are grouped into runs of one
 * level and one font, each run shaped by its font (opentype.js: Arabic joining forms and
 * ligatures), and the runs put in visual order. A character no font draws is kept as a gap the
 * width of a box, and named in `missing`.
 */

interface Placed {
	/** Undefined for a character no font draws (drawn as an empty box). */
	font?: LoadedFont;
	glyph?: Glyph;
	/** Pen position from the line's start, in pixels. */
	x: number;
	advance: number;
	char: string;
}

interface Run {
	level: number;
	font?: LoadedFont;
	text: string;
}

let made: ReturnType<typeof bidiFactory> | undefined;
/** The bidirectional algorithm, made on first need. */
const bidi = () => (made ??= bidiFactory());

/** Joiners, variation selectors, direction marks and tags: shape other characters, drawn as nothing. */
const INVISIBLE =
	/^(?:[\u200b-\u200f\u202a-\u202e\u2060-\u206f]|[\ufe00-\ufe0f]|[\u{e0000}-\u{e007f}])$/u;
const ARABIC = /[\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff]/;
/**
 * What can make a level other than 0: right-to-left letters and Arabic digits, and the marks
 * and embeddings that set a direction. A line with none is left to right throughout, read
 * without the algorithm (whose tables cost a Latin picture more than its drawing).
 */
const RIGHT_TO_LEFT =
	/[\u0590-\u08ff\u200f\u202a-\u202e\u2066-\u2069\ufb1d-\ufdff\ufe70-\ufeff\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

const chosen = new Map<string, LoadedFont | null>();
const fontOf = (char: string, bold: boolean) =>
	getOrCreate(chosen, `${bold ? 'b' : 'r'}${char}`, () => fontFor(char, bold) ?? null) ?? undefined;

function runsOf(text: string, bold: boolean): Run[] {
	const levels = RIGHT_TO_LEFT.test(text) ? bidi().getEmbeddingLevels(text).levels : undefined;
	const runs: Run[] = [];
	let at = 0;
	for (const char of Array.from(text)) {
		const level = levels ? levels[at] : 0;
		at += char.length;
		if (INVISIBLE.test(char)) continue;
		const font = fontOf(char, bold);
		const last = runs[runs.length - 1];
		if (last && last.level === level && font && last.font?.file === font.file) last.text += char;
		else runs.push({ level, font, text: char });
	}
	return runs;
}

/** Rule L2: from the highest level down to the lowest odd one, reverse each stretch at that level or above. */
function visualOrder(runs: Run[]): Run[] {
	const out = [...runs];
	const levels = out.map((r) => r.level);
	const highest = Math.max(0, ...levels);
	const lowestOdd = Math.min(...levels.filter((l) => l % 2 === 1), highest + 1);
	for (let level = highest; level >= lowestOdd; level--)
		for (let i = 0; i < out.length; i++) {
			if (out[i].level < level) continue;
			let j = i;
			while (j + 1 < out.length && out[j + 1].level >= level) j++;
			out.splice(i, j - i + 1, ...out.slice(i, j + 1).reverse());
			i = j;
		}
	return out;
}

/** A run's glyphs left to right (opentype.js already turns Arabic runs round). */
function shapeRun(run: Run, size: number, pen: number): Placed[] {
	const { font } = run;
	if (!font)
		return Array.from(run.text).map((char, i) => ({
			char,
			x: pen + i * size * 0.6,
			advance: size * 0.6,
		}));
	// Only Arabic needs opentype.js's shaping (joining forms, which also turns the run round);
	// other scripts are a glyph per character, looked up directly (much faster).
	const arabic = ARABIC.test(run.text);
	let glyphs = arabic
		? font.font.stringToGlyphs(run.text)
		: Array.from(run.text, (char) => font.font.charToGlyph(char));
	if (run.level % 2 === 1 && !arabic) glyphs = glyphs.reverse();
	const scale = size / font.font.unitsPerEm;
	const placed: Placed[] = [];
	for (const glyph of glyphs) {
		const advance = (glyph.advanceWidth ?? 0) * scale;
		placed.push({ font, glyph, x: pen, advance, char: '' });
		pen += advance;
	}
	return placed;
}

interface Line {
	placed: Placed[];
	missing: Set<string>;
	width: number;
}

const lines = new Map<string, Line>();

/** The line's glyphs, the characters no font draws, and its width in pixels (kept: a label is measured, then drawn). */
export function shapeLine(text: string, size: number, bold: boolean): Line {
	if (lines.size > 2000) lines.clear();
	return getOrCreate(lines, `${size}:${bold ? 'b' : 'r'}:${text}`, () => shape(text, size, bold));
}

function shape(text: string, size: number, bold: boolean): Line {
	const placed: Placed[] = [];
	const missing = new Set<string>();
	let pen = 0;
	for (const run of visualOrder(runsOf(text, bold))) {
		if (!run.font) for (const char of run.text) missing.add(char);
		const glyphs = shapeRun(run, size, pen);
		placed.push(...glyphs);
		pen = glyphs.length ? glyphs[glyphs.length - 1].x + glyphs[glyphs.length - 1].advance : pen;
	}
	return { placed, missing, width: pen };
}
