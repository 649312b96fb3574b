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

/** The zlib stream's first two bytes: deflate, 32 KiB window, the fastest level. */
export const ZLIB_HEADER = new Uint8Array([0x78, 0x01]);
/** An empty last block of fixed codes: the deflate stream ends. */
export const ZLIB_END = new Uint8Array([0x03, 0x00]);

/**
 * A band of a zlib stream: its bytes deflated and flushed to a byte boundary without ending the
 * stream (Z_SYNC_FLUSH), so the bands' outputs, one after the other, are one deflate stream.
 * Level 1: on the 60-state picture, two thirds of level 3's time for 3 % more bytes (level 6: twice
 * level 3's time, a fifth fewer bytes).
 */
export function deflateBand(data: Uint8Array): Uint8Array {
	return deflateRawSync(data, { level: 1, finishFlush: constants.Z_SYNC_FLUSH });
}

/** Adler-32 of `data` continued from `adler` (start at 1), as the zlib stream ends with. */
export function adler32(adler: number, data: Uint8Array): number {
	let a = adler & 0xffff;
	let b = adler >>> 16;
	const n = data.length;
	let i = 0;
	while (i < n) {
		// 5552 bytes at most between reductions: the sums stay below 2^32.
		const end = Math.min(i + 5552, n);
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
