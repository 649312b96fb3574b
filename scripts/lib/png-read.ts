import { unzlibSync } from 'fflate';

/** A PNG's size and pixels: `channels` bytes a pixel (3: RGB, 4: RGBA), row by row. */
export interface ReadPng {
	width: number;
	height: number;
	channels: number;
	pixels: Uint8Array;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const CHANNELS: Record<number, number> = { 2: 3, 6: 4 };

/**
 * Reads an 8-bit RGB or RGBA PNG without interlacing (the picture's, a browser's screenshots):
 * its IDAT chunks inflated by fflate, each row's filter undone. Anything else is refused.
 */
export function readPng(file: Uint8Array): ReadPng {
	const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
	if (!SIGNATURE.every((b, i) => file[i] === b)) throw new Error('not a PNG file');
	const width = view.getUint32(16);
	const height = view.getUint32(20);
	const channels = CHANNELS[file[25]];
	if (file[24] !== 8 || !channels || file[28] !== 0)
		throw new Error('only 8-bit RGB or RGBA PNGs without interlacing are read');
	const idat: Uint8Array[] = [];
	for (let at = 8; at < file.length; at += 12 + view.getUint32(at)) {
		const type = String.fromCharCode(...file.subarray(at + 4, at + 8));
		if (type === 'IDAT') idat.push(file.subarray(at + 8, at + 8 + view.getUint32(at)));
	}
	const joined = new Uint8Array(idat.reduce((n, c) => n + c.length, 0));
	idat.reduce((at, c) => (joined.set(c, at), at + c.length), 0);
	return { width, height, channels, pixels: unfilter(unzlibSync(joined), width, height, channels) };
}

/** Undoes each row's filter (None, Sub, Up, Average, Paeth), as the PNG specification defines them. */
function unfilter(raw: Uint8Array, width: number, height: number, bpp: number): Uint8Array {
	const stride = width * bpp;
	if (raw.length !== (stride + 1) * height) throw new Error('the image data has the wrong size');
	const out = new Uint8Array(stride * height);
	for (let y = 0; y < height; y++) {
		const filter = raw[y * (stride + 1)];
		for (let x = 0; x < stride; x++) {
			const a = x >= bpp ? out[y * stride + x - bpp] : 0;
			const b = y > 0 ? out[(y - 1) * stride + x] : 0;
			const c = x >= bpp && y > 0 ? out[(y - 1) * stride + x - bpp] : 0;
			const p = a + b - c;
			const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
			const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
			const add = [0, a, b, (a + b) >> 1, paeth][filter];
			out[y * stride + x] = (raw[y * (stride + 1) + 1 + x] + add) & 0xff;
		}
	}
	return out;
}
