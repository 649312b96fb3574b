/**
 * A PNG file from RGB pixels, with its own small deflate (fixed Huffman codes, LZ77 matches
 * found through a hash chain): no Node module and no package, so it runs where the picture runs.
 * A drawing is mostly runs of one colour, which the Sub filter turns into runs of zeros.
 */

const CRC_TABLE = (() => {
	const table = new Uint32Array(256);
	for (let n = 0; n < 256; n++) {
		let c = n;
		for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
		table[n] = c >>> 0;
	}
	return table;
})();

function crc32(bytes: Uint8Array, start: number, end: number): number {
	let c = 0xffffffff;
	for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
	return (c ^ 0xffffffff) >>> 0;
}

function adler32(bytes: Uint8Array): number {
	let a = 1;
	let b = 0;
	for (let i = 0; i < bytes.length; ) {
		const end = Math.min(i + 5552, bytes.length);
		for (; i < end; i++) {
			a += bytes[i];
			b += a;
		}
		a %= 65521;
		b %= 65521;
	}
	return ((b << 16) | a) >>> 0;
}

/** Bits written least significant first, as deflate wants. */
class BitWriter {
	private out = new Uint8Array(1 << 16);
	private length = 0;
	private bits = 0;
	private count = 0;

	write(value: number, width: number): void {
		this.bits |= value << this.count;
		this.count += width;
		while (this.count >= 8) {
			this.byte(this.bits & 0xff);
			this.bits >>>= 8;
			this.count -= 8;
		}
	}

	/** A Huffman code, which deflate stores most significant bit first. */
	code(value: number, width: number): void {
		let reversed = 0;
		for (let i = 0; i < width; i++) reversed |= ((value >> i) & 1) << (width - 1 - i);
		this.write(reversed, width);
	}

	byte(value: number): void {
		if (this.length === this.out.length) {
			const bigger = new Uint8Array(this.out.length * 2);
			bigger.set(this.out);
			this.out = bigger;
		}
		this.out[this.length++] = value;
	}

	finish(): Uint8Array {
		if (this.count > 0) this.byte(this.bits & 0xff);
		this.bits = 0;
		this.count = 0;
		return this.out.subarray(0, this.length);
	}
}

const LENGTH_BASE = [
	3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
	163, 195, 227, 258,
];
const LENGTH_EXTRA = [
	0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
const DIST_BASE = [
	1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049,
	3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA = [
	0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
];

function symbol(w: BitWriter, s: number): void {
	if (s < 144) w.code(0x30 + s, 8);
	else if (s < 256) w.code(0x190 + s - 144, 9);
	else if (s < 280) w.code(s - 256, 7);
	else w.code(0xc0 + s - 280, 8);
}

/** The last index whose base is at most `value`. */
const slot = (bases: number[], value: number) => {
	let i = bases.length - 1;
	while (bases[i] > value) i--;
	return i;
};

function match(w: BitWriter, length: number, distance: number): void {
	const l = slot(LENGTH_BASE, length);
	symbol(w, 257 + l);
	if (LENGTH_EXTRA[l]) w.write(length - LENGTH_BASE[l], LENGTH_EXTRA[l]);
	const d = slot(DIST_BASE, distance);
	w.code(d, 5);
	if (DIST_EXTRA[d]) w.write(distance - DIST_BASE[d], DIST_EXTRA[d]);
}

const WINDOW = 32768;
const HASH = 1 << 15;

/** zlib data: one block with fixed codes, greedy matches from a hash chain of 3-byte prefixes. */
export function deflate(data: Uint8Array): Uint8Array {
	const w = new BitWriter();
	w.byte(0x78);
	w.byte(0x01);
	w.write(1, 1); // the last block
	w.write(1, 2); // fixed Huffman codes
	const head = new Int32Array(HASH).fill(-1);
	const prev = new Int32Array(WINDOW);
	const hash = (i: number) => ((data[i] << 10) ^ (data[i + 1] << 5) ^ data[i + 2]) & (HASH - 1);
	const insert = (i: number) => {
		if (i + 2 >= data.length) return;
		const h = hash(i);
		prev[i & (WINDOW - 1)] = head[h];
		head[h] = i;
	};
	for (let i = 0; i < data.length; ) {
		let best = 0;
		let distance = 0;
		if (i + 2 < data.length) {
			let candidate = head[hash(i)];
			const limit = Math.min(258, data.length - i);
			for (let chain = 0; candidate >= 0 && i - candidate <= WINDOW && chain < 24; chain++) {
				let n = 0;
				while (n < limit && data[candidate + n] === data[i + n]) n++;
				if (n > best) [best, distance] = [n, i - candidate];
				if (n === limit) break;
				candidate = prev[candidate & (WINDOW - 1)];
			}
		}
		if (best >= 3) {
			match(w, best, distance);
			for (let k = 0; k < best; k++) insert(i + k);
			i += best;
		} else {
			symbol(w, data[i]);
			insert(i);
			i++;
		}
	}
	symbol(w, 256);
	const body = w.finish();
	const out = new Uint8Array(body.length + 4);
	out.set(body);
	new DataView(out.buffer).setUint32(body.length, adler32(data));
	return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
	const out = new Uint8Array(12 + data.length);
	const view = new DataView(out.buffer);
	view.setUint32(0, data.length);
	for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
	out.set(data, 8);
	view.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
	return out;
}

/** An 8-bit RGB PNG of `rgb` (width × height × 3 bytes, row by row). */
export function encodePng(width: number, height: number, rgb: Uint8Array): Uint8Array {
	const stride = width * 3;
	const filtered = new Uint8Array((stride + 1) * height);
	for (let y = 0; y < height; y++) {
		const row = y * stride;
		const at = y * (stride + 1);
		filtered[at] = 1; // Sub: each byte less the same byte of the pixel to its left
		for (let x = 0; x < stride; x++)
			filtered[at + 1 + x] = (rgb[row + x] - (x >= 3 ? rgb[row + x - 3] : 0)) & 0xff;
	}
	const header = new Uint8Array(13);
	const view = new DataView(header.buffer);
	view.setUint32(0, width);
	view.setUint32(4, height);
	header.set([8, 2, 0, 0, 0], 8);
	const parts = [
		new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk('IHDR', header),
		chunk('IDAT', deflate(filtered)),
		chunk('IEND', new Uint8Array(0)),
	];
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const part of parts) {
		out.set(part, at);
		at += part.length;
	}
	return out;
}
