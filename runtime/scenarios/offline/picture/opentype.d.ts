/** The part of opentype.js (2.x ships no types) the PNG picture's text uses. */
declare module 'opentype.js' {
	type PathCommand =
		| { type: 'M' | 'L'; x: number; y: number }
		| { type: 'Q'; x1: number; y1: number; x: number; y: number }
		| { type: 'C'; x1: number; y1: number; x2: number; y2: number; x: number; y: number }
		| { type: 'Z' };
	interface Glyph {
		index: number;
		advanceWidth?: number;
		getPath(x: number, y: number, fontSize: number): { commands: PathCommand[] };
	}
	interface Font {
		unitsPerEm: number;
		charToGlyphIndex(char: string): number;
		charToGlyph(char: string): Glyph;
		stringToGlyphs(text: string): Glyph[];
	}
	export function parse(buffer: ArrayBuffer, options?: { lowMemory?: boolean }): Font;
}
