/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the PNG picture's fonts are files shipped beside this module (dist/lib/fonts), read once per process when a text needs them; node:zlib compresses the PNG natively (a JavaScript deflate took seconds on a large picture) */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { constants, crc32 as zlibCrc32, deflateRawSync } from 'node:zlib';

/**
 * What the PNG picture takes from Node.js, in one module shipped as dist/lib/picture-files.js:
 * its font files and zlib. The picture is drawn in n8n and in the command-line tool, never in a
 * browser (the studio draws with React Flow).
 */

/** A font file's bytes: beside this module, in fonts/ (the sources) or dist/lib/fonts (the package). */
export function fontFile(file: string): ArrayBuffer {
	const bytes = readFileSync(path.join(__dirname, 'fonts', file));
	return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}

/** The zlib stream's first two bytes: deflate, 32 KiB window, a fast level. */
export const ZLIB_HEADER = new Uint8Array([0x78, 0x5e]);
/** An empty last block of fixed codes: the deflate stream ends. */
export const ZLIB_END = new Uint8Array([0x03, 0x00]);

/**
 * A band of a zlib stream: its bytes deflated and flushed to a byte boundary without ending the
 * stream (Z_SYNC_FLUSH), so the bands' outputs, one after the other, are one deflate stream.
 * Level 3: a quarter of level 6's time, 20 % more bytes; level 1 was no faster (the same least
 * time, 3 % more bytes).
 */
export function deflateBand(data: Uint8Array): Uint8Array {
	return deflateRawSync(data, { level: 3, finishFlush: constants.Z_SYNC_FLUSH });
}

/** Adler-32 of `data` continued from `adler` (start at 1), as the zlib stream ends with. */
export function adler32(adler: number, data: Uint8Array): number {
	let a = adler & 0xffff;
	let b = adler >>> 16;
	const n = data.length;
	let i = 0;
	while (i < n) {
		// 3800 bytes at most between reductions: the sums stay below 2^31, integers to V8.
		const end = Math.min(i + 3800, n);
		// Eight bytes a step: b gains 8 a and each byte times the steps left (a third faster).
		for (const whole = i + ((end - i) & ~7); i < whole; i += 8) {
			const d0 = data[i];
			const d1 = data[i + 1];
			const d2 = data[i + 2];
			const d3 = data[i + 3];
			const d4 = data[i + 4];
			const d5 = data[i + 5];
			const d6 = data[i + 6];
			const d7 = data[i + 7];
			b += 8 * a + 8 * d0 + 7 * d1 + 6 * d2 + 5 * d3 + 4 * d4 + 3 * d5 + 2 * d6 + d7;
			a += d0 + d1 + d2 + d3 + d4 + d5 + d6 + d7;
		}
		for (; i < end; i++) {
			a += data[i];
			b += a;
		}
		a %= 65521;
		b %= 65521;
	}
	return ((b << 16) | a) >>> 0;
}

/** CRC-32 of `data`, as a PNG chunk ends with (Node's zlib, native). */
export function crc32(data: Uint8Array): number {
	return zlibCrc32(data);
}
