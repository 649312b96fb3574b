/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: decodes the PNG with Node's zlib, never loaded by n8n */
import { inflateSync } from 'node:zlib';

import { drawPngPages } from '../../runtime/scenarios/offline/picture/draw';
import { pictureScene } from '../../runtime/scenarios/offline/picture/scene';

/**
 * The PNG is drawn a band of rows at a time and compressed band by band: the file must be one
 * valid zlib stream (its Adler-32 checked by the decoder), and show what one band the height of
 * the whole picture shows, shapes and letters cut by the bands' edges included; its pages must
 * be its columns.
 */

/** A chain of `n` states, each with a message and two ways on: taller than several bands. */
function chain(n: number): Record<string, unknown> {
	const states: Record<string, unknown> = {};
	for (let i = 0; i < n; i++)
		states[`s${i}`] = {
			messages: [`Step ${i}: tell us what you would like us to do next, please.`],
			...(i + 1 < n ? { on: [{ match: { contains: ['next'] }, target: `s${i + 1}` }] } : {}),
			...(i % 3 === 0 && i + 2 < n ? { after: { seconds: 60, target: `s${i + 2}` } } : {}),
		};
	return { id: 'chain', version: 1, start: 's0', states };
}

/** A PNG's width, height and pixel rows (filter byte first), read with Node's zlib. */
function decode(png: Uint8Array): { width: number; height: number; rows: Buffer } {
	const file = Buffer.from(png);
	const idat: Buffer[] = [];
	let [width, height] = [0, 0];
	for (let at = 8; at < file.length; ) {
		const length = file.readUInt32BE(at);
		const type = file.toString('latin1', at + 4, at + 8);
		const data = file.subarray(at + 8, at + 8 + length);
		if (type === 'IHDR') [width, height] = [data.readUInt32BE(0), data.readUInt32BE(4)];
		if (type === 'IDAT') idat.push(data);
		at += 12 + length;
	}
	return { width, height, rows: inflateSync(Buffer.concat(idat)) };
}

describe('PNG drawn in bands', () => {
	const scene = pictureScene(chain(12));
	const banded = drawPngPages(scene, 200);
	const whole = decode(drawPngPages(scene, Infinity, scene.height).png);
	const picture = decode(banded.png);

	it('is one valid file, as tall as the picture and several bands', () => {
		expect([picture.width, picture.height]).toEqual([scene.width, scene.height]);
		expect(scene.height).toBeGreaterThan(3 * 256);
		expect(picture.rows.length).toBe((scene.width * 3 + 1) * scene.height);
	});

	it('shows what one band the height of the picture shows', () => {
		// Coverage summed from another row origin may round a pixel's level by one, never more.
		let differ = 0;
		for (let i = 0; i < picture.rows.length; i++)
			if (Math.abs(picture.rows[i] - whole.rows[i]) > 1) differ++;
		expect(differ).toBe(0);
		let ink = 0;
		for (const byte of picture.rows) if (byte < 128) ink++;
		expect(ink).toBeGreaterThan(10_000);
	});

	it('cuts pages that are its columns, left to right', () => {
		const row = scene.width * 3 + 1;
		let x0 = 0;
		expect(banded.pages.length).toBeGreaterThan(1);
		for (const page of banded.pages.map(decode)) {
			expect(page.height).toBe(scene.height);
			for (const y of [0, 300, 511, 512, scene.height - 1]) {
				const line = page.rows.subarray(
					y * (page.width * 3 + 1) + 1,
					(y + 1) * (page.width * 3 + 1),
				);
				const from = y * row + 1 + x0 * 3;
				expect(Buffer.compare(line, picture.rows.subarray(from, from + page.width * 3))).toBe(0);
			}
			x0 += page.width;
		}
		expect(x0).toBe(scene.width);
	});
});
