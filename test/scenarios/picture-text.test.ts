/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: a fixture file, never loaded by n8n */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { renderPictures } from '../../runtime/scenarios/offline/picture';
import { drawText } from '../../runtime/scenarios/offline/picture/letters';
import { Raster } from '../../runtime/scenarios/offline/picture/raster';

/**
 * The PNG's text in every script: each character drawn alone must leave ink, differ from the
 * empty box of a character no font has, from "?", and from another letter of its script; a
 * right-to-left word must start at the right. A blank or "?"-only glyph table fails all of these.
 */

/** The ink of a text drawn at 24 px, cropped to where it is: rows of 0/1 as a string. */
function ink(text: string): string {
	const raster = new Raster(160, 40);
	drawText(raster, text, { x: 10, y: 30 }, { size: 24, bold: false, colour: '#000000', alpha: 1 });
	const dark = (x: number, y: number) => raster.rgb[(y * raster.width + x) * 3] < 128;
	const xs: number[] = [];
	const ys: number[] = [];
	for (let y = 0; y < raster.height; y++)
		for (let x = 0; x < raster.width; x++)
			if (dark(x, y)) {
				xs.push(x);
				ys.push(y);
			}
	if (xs.length === 0) return '';
	const rows: string[] = [];
	for (let y = Math.min(...ys); y <= Math.max(...ys); y++) {
		let row = '';
		for (let x = Math.min(...xs); x <= Math.max(...xs); x++) row += dark(x, y) ? '1' : '0';
		rows.push(row);
	}
	return rows.join('\n');
}

/** The share of cells two ink shapes of one size agree on (sub-pixel placement moves edges). */
function alike(a: string[], b: string[]): number {
	let same = 0;
	let all = 0;
	for (let y = 0; y < Math.min(a.length, b.length); y++)
		for (let x = 0; x < Math.min(a[y].length, b[y].length); x++) {
			all++;
			if (a[y][x] === b[y][x]) same++;
		}
	return all ? same / all : 0;
}

const NO_FONT = '\u{10fffd}'; // a private-use character: no font has it
const SCRIPTS: Record<string, [string, string]> = {
	Latin: ['A', 'g'],
	Cyrillic: ['Ж', 'Д'],
	Greek: ['Ω', 'λ'],
	Arabic: ['ع', 'ق'],
	Hebrew: ['ש', 'ם'],
	Chinese: ['汉', '字'],
	Japanese: ['か', 'ア'],
	Korean: ['한', '글'],
	Emoji: ['😀', '📦'],
};

describe('PNG text in every script', () => {
	const box = ink(NO_FONT);
	const question = ink('?');

	it.each(Object.entries(SCRIPTS))('%s: drawn, and not as a box or "?"', (_script, [a, b]) => {
		for (const char of [a, b]) {
			const drawn = ink(char);
			expect(drawn).not.toBe('');
			expect(drawn).not.toBe(box);
			expect(drawn).not.toBe(question);
		}
		expect(ink(a)).not.toBe(ink(b));
	});

	it('draws right-to-left words from the right: the first letter is the rightmost', () => {
		const rows = ink('שלום').split('\n');
		// The word's rightmost columns, bottom-aligned, against the first and the last letter.
		const tail = (letter: string) => {
			const shape = ink(letter).split('\n');
			const width = shape[0].length;
			const end = rows.slice(rows.length - shape.length).map((r) => r.slice(r.length - width));
			return alike(end, shape);
		};
		expect(tail('ש')).toBeGreaterThan(0.9);
		expect(tail('ש')).toBeGreaterThan(tail('ם') + 0.1);
	});

	it('names what it cannot draw, once, and draws a scenario in many scripts whole', () => {
		const scenario = JSON.parse(
			readFileSync(path.join(__dirname, 'fixtures/every-script.json'), 'utf8'),
		) as { states: Record<string, { messages?: string[] }> };
		expect(renderPictures(scenario).missing).toEqual([]);
		scenario.states.privet.messages = [`Hi ${NO_FONT} and ${NO_FONT} again`];
		expect(renderPictures(scenario).missing).toEqual([NO_FONT]);
	});
});
