import { adler32, crc32, deflateBand, ZLIB_END, ZLIB_HEADER } from './files';

/**
 * A PNG file from RGB pixels, written band by band: each band's rows are compressed as they come
 * (Node's zlib, one deflate stream across the bands), so a tall picture is never held whole: in
 * a fresh process, touching tens of megabytes of new memory cost more than drawing them.
 */

/** A chunk: its length, type, data and the CRC-32 of type and data, as PNG frames it. */
function chunk(type: string, parts: readonly Uint8Array[]): Uint8Array {
	const length = parts.reduce((n, p) => n + p.length, 0);
	const out = new Uint8Array(12 + length);
	const view = new DataView(out.buffer);
	view.setUint32(0, length);
	for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
	let at = 8;
	for (const part of parts) {
		out.set(part, at);
		at += part.length;
	}
	view.setUint32(8 + length, crc32(out.subarray(4, 8 + length)));
	return out;
}

/** An 8-bit RGB PNG `width` × `height`, its rows given in order, a band at a time. */
export class PngWriter {
	/** The file's chunks so far: an IDAT per band, the zlib stream's header in the first. */
	private readonly chunks: Uint8Array[] = [];
	private adler = 1;
	private rows = 0;
	private filtered = new Uint8Array(0);

	constructor(
		readonly width: number,
		readonly height: number,
	) {}

	/** `count` rows of `rgb` (each `stride` pixels wide), their columns from `x0` (this width). */
	addRows(rgb: Uint8Array, stride: number, x0: number, count: number): void {
		const row = this.width * 3;
		const size = (row + 1) * count;
		if (this.filtered.length < size) this.filtered = new Uint8Array(size);
		const filtered = this.filtered.subarray(0, size);
		// Filter type 0 (None) on every row: a copy, where a computed filter cost more time than it
		// saved bytes on a drawing of flat colours.
		for (let y = 0; y < count; y++) {
			const from = (y * stride + x0) * 3;
			filtered[y * (row + 1)] = 0;
			filtered.set(rgb.subarray(from, from + row), y * (row + 1) + 1);
		}
		this.adler = adler32(this.adler, filtered);
		const band = deflateBand(filtered);
		this.chunks.push(chunk('IDAT', this.rows === 0 ? [ZLIB_HEADER, band] : [band]));
		this.rows += count;
	}

	/** The file, once every row was added. */
	finish(): Uint8Array {
		if (this.rows !== this.height) throw new Error(`PNG of ${this.height} rows given ${this.rows}`);
		const trailer = new Uint8Array(4);
		new DataView(trailer.buffer).setUint32(0, this.adler);
		const header = new Uint8Array(13);
		const view = new DataView(header.buffer);
		view.setUint32(0, this.width);
		view.setUint32(4, this.height);
		header.set([8, 2, 0, 0, 0], 8);
		const parts = [
			new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
			chunk('IHDR', [header]),
			...this.chunks,
			chunk('IDAT', [ZLIB_END, trailer]),
			chunk('IEND', []),
		];
		const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
		let at = 0;
		for (const part of parts) {
			out.set(part, at);
			at += part.length;
		}
		return out;
	}
}
