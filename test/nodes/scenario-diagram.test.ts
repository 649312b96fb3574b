/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: example files, never loaded by n8n */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { IBinaryData } from 'n8n-workflow';
import { parseStringPromise } from 'xml2js';

import { readPng } from '../../scripts/lib/png-read';
import { outputOf, runWorkflow } from '../helpers/n8n';
import { largeScenario } from '../studio/generated';
import { itemsInto, scenarioNode } from '../helpers/workflows';
import { greetingTest } from '../scenarios/split-fixture';

const examples = path.join(__dirname, '../../examples/scenarios');
const example = (name: string) => readFileSync(path.join(examples, `${name}.json`), 'utf8');

type XmlNode = { $?: Record<string, string>; [child: string]: unknown };

/** Every value of an attribute anywhere in the parsed document. */
function attributes(node: unknown, name: string, found: string[] = []): string[] {
	if (Array.isArray(node)) for (const child of node) attributes(child, name, found);
	else if (node !== null && typeof node === 'object') {
		const element = node as XmlNode;
		if (element.$?.[name] !== undefined) found.push(element.$[name]);
		for (const [key, child] of Object.entries(element))
			if (key !== '$') attributes(child, name, found);
	}
	return found;
}

/** Text that breaks XML unless escaped: markup, quotes, an ampersand, a control character, an emoji. */
const awkward = JSON.stringify({
	id: 'awkward',
	version: 1,
	start: 'hello',
	states: {
		hello: {
			messages: ['Fish & <chips> "today" it\'s \u0007 ready 🐟 </svg>'],
			on: [{ match: { equals: ['<b>', 'a&b'] }, target: 'bye' }],
		},
		bye: { messages: [']]> <!-- -->'], end: true },
	},
});

const sources: Record<string, () => string> = {
	'order-status': () => example('order-status'),
	'lead-qualification': () => example('lead-qualification'),
	support: () => example('support'),
	faq: () => example('faq'),
	awkward: () => awkward,
	large: () => JSON.stringify(largeScenario(60)),
	split: () => JSON.stringify({ ...greetingTest(), id: 'split' }),
};

const svgSize = (svg: XmlNode) => [Number(svg.$?.width), Number(svg.$?.height)];

/** A PNG's size and the share of its pixels that pass a test. */
function readRgbPng(file: Buffer) {
	const { width, height, channels, pixels: rgb } = readPng(file);
	expect(channels).toBe(3);
	const share = (test: (r: number, g: number, b: number) => boolean) => {
		let n = 0;
		for (let i = 0; i < rgb.length; i += 3) if (test(rgb[i], rgb[i + 1], rgb[i + 2])) n++;
		return n / (width * height);
	};
	return { width, height, pixels: rgb, share };
}

/** A PNG's size from its header (IHDR), without decoding it. */
const pngSize = (file: Buffer) => ({ width: file.readUInt32BE(16), height: file.readUInt32BE(20) });

/**
 * A PNG wider than 800 px is also cut into pages of 800 px or less, left to right, full height;
 * for a picture of a few megapixels, each page's pixels are the whole picture's at its offset
 * (decoding the 60-state picture's pages in plain JavaScript would take minutes: sizes only).
 */
function pagesCut(
	binary: Record<string, IBinaryData>,
	whole: { width: number; height: number; pixels: Uint8Array },
) {
	const files = Object.keys(binary)
		.filter((key) => key.startsWith('page'))
		.map((key) => Buffer.from(binary[key].data, 'base64'));
	if (whole.width <= 800) return expect(files).toEqual([]);
	expect(files.length).toBe(Math.ceil(whole.width / 800));
	const decode = whole.width * whole.height < 4_000_000;
	let x0 = 0;
	for (const file of files) {
		const size = pngSize(file);
		expect(size.width).toBeLessThanOrEqual(800);
		expect(size.height).toBe(whole.height);
		if (decode) {
			const page = readPng(file);
			// A row in the middle: the page's pixels are the whole picture's at its offset.
			const y = Math.floor(whole.height / 2);
			const row = (p: typeof whole, from: number, w: number) =>
				Buffer.from(p.pixels.subarray((y * p.width + from) * 3, (y * p.width + from + w) * 3));
			expect(row(page, 0, page.width).equals(row(whole, x0, page.width))).toBe(true);
		}
		x0 += size.width;
	}
	expect(x0).toBe(whole.width);
}

describe('Messaging Bot Scenario node: Get Diagram picture', () => {
	it("writes a split's variants and their shares on its arrows", async () => {
		const scenario = JSON.stringify({ ...greetingTest(), id: 'split' });
		const run = await runWorkflow(
			itemsInto([{}], scenarioNode({ operation: 'getDiagram', scenario })),
			{},
		);
		const [item] = outputOf(run, 'Scenario');
		const svg = Buffer.from((item.binary?.svg as IBinaryData).data, 'base64').toString('utf8');
		expect(svg).toContain('>short · 50%</text>');
		expect(svg).toContain('>warm · 50%</text>');
		expect(svg).toContain('>split test greeting, goal: ordered</text>');
	});

	it.each(Object.keys(sources))(
		'gives %s as a PNG and an SVG file that parses as XML and draws every state',
		async (name) => {
			const scenario = sources[name]();
			const run = await runWorkflow(
				itemsInto([{}], scenarioNode({ operation: 'getDiagram', scenario })),
				{},
			);
			expect(run.data.resultData.error).toBeUndefined();
			const [item] = outputOf(run, 'Scenario');
			const binary = item.binary?.svg as IBinaryData;
			expect(binary).toMatchObject({
				mimeType: 'image/svg+xml',
				fileName: `${name}.svg`,
				fileExtension: 'svg',
			});
			const svg = Buffer.from(binary.data, 'base64').toString('utf8');
			const xml = (await parseStringPromise(svg, { strict: true })) as { svg: XmlNode };
			expect(xml.svg.$).toMatchObject({ xmlns: 'http://www.w3.org/2000/svg' });
			const states = Object.keys((JSON.parse(scenario) as { states: object }).states);
			expect(attributes(xml, 'data-state').sort()).toEqual([...states].sort());
			expect(svg).not.toContain('\u0007');
			const png = item.binary?.diagram as IBinaryData;
			expect(png).toMatchObject({ mimeType: 'image/png', fileName: `${name}.png` });
			const image = readRgbPng(Buffer.from(png.data, 'base64'));
			expect([image.width, image.height]).toEqual(svgSize(xml.svg));
			// Drawn on: far from all white, and the start state's green border is there.
			expect(image.share((r, g, b) => r + g + b < 600)).toBeGreaterThan(0.01);
			expect(image.share((r, g, b) => g > r + 40 && g > b + 20)).toBeGreaterThan(0);
			pagesCut(item.binary ?? {}, image);
			// The Mermaid text stays beside the picture.
			expect(String(item.json.mermaid)).toMatch(/^stateDiagram-v2\n/);
		},
		// The 60-state picture takes seconds on a busy machine.
		60_000,
	);
});
