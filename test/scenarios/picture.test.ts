/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: example files, never loaded by n8n */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { parseStringPromise } from 'xml2js';

import { ANY, scenarioGraph } from '../../runtime/scenarios/offline/picture/graph';
import { renderPicture } from '../../runtime/scenarios/offline/picture/svg';
import type { Traffic } from '../../runtime/scenarios/offline/picture/traffic';
import { byAttribute, type XmlElement } from '../helpers/svg';

const orderStatus = JSON.parse(
	readFileSync(path.join(__dirname, '../../examples/scenarios/order-status.json'), 'utf8'),
) as { states: Record<string, unknown> };

async function drawn(traffic?: Traffic) {
	const xml = await parseStringPromise(renderPicture(orderStatus, { traffic }), { strict: true });
	const states = byAttribute(xml, 'data-state');
	const edges = byAttribute(xml, 'data-edge');
	const fill = (state: string) => (states.get(state)?.rect as XmlElement[])[0].$?.fill ?? '';
	// The sum of the fill's red, green and blue: less is darker.
	const lightness = (state: string) =>
		[1, 3, 5].reduce((sum, at) => sum + parseInt(fill(state).slice(at, at + 2), 16), 0);
	const width = (edge: string) =>
		Number((edges.get(edge)?.path as XmlElement[])[0].$?.['stroke-width']);
	const faded = (edge: string) => edges.get(edge)?.$?.opacity === '0.45';
	return { xml, states, edges, fill, lightness, width, faded };
}

const traffic: Traffic = {
	states: {
		welcome: { entered: 1000, dropOff: 0 },
		ask_email: { entered: 600, dropOff: 60 },
		human: { entered: 50, dropOff: 45 },
	},
	edges: [
		{ from: 'welcome', to: 'ask_email', count: 600 },
		{ from: 'human', to: 'welcome', count: 5 },
		// No arrow from status to human: the keyword "human" / "agent" / "person" took it.
		{ from: 'status', to: 'human', count: 30 },
	],
};

describe('scenario picture', () => {
	it('lists every kind of step once, from the format walk', () => {
		const graph = scenarioGraph(orderStatus);
		const labels = graph.edges.map((e) => `${e.source} -> ${e.target}: ${e.label}`);
		expect(labels).toEqual(
			expect.arrayContaining([
				'__start -> welcome: ',
				'__any -> welcome: keyword "restart" / "menu"',
				'__any -> __end: keyword "stop"',
				'ask_email -> ask_number: email = valid email',
				'ask_email -> human: invalid after 2 retries',
				'ask_number -> ask_number: after 30 min silence',
				'lookup -> retry_number: if order missing',
				'lookup -> status: otherwise',
			]),
		);
		expect(graph.any).toBe(true);
		expect(graph.boxes.map((b) => b.name)).toEqual(Object.keys(orderStatus.states));
	});

	it('says on its loop that a capture without a target keeps the client where it is', () => {
		const doc = {
			start: 'ask',
			variables: [],
			states: {
				ask: { capture: { into: 'note', check: 'text' } },
				ask_end: { capture: { into: 'note', check: 'text', actions: [{ end: true }] } },
			},
		};
		const labels = scenarioGraph(doc).edges.map((e) => `${e.source} -> ${e.target}: ${e.label}`);
		expect(labels).toContain('ask -> ask: note = valid text, stays here');
		expect(labels).toContain('ask_end -> __end: note = valid text');
	});

	it('reads a half-written draft without throwing', () => {
		const draft = { start: 'a', states: { a: { on: [{ match: 5, target: 'b' }, 'x'] }, b: 7 } };
		expect(scenarioGraph(draft).edges.map((e) => e.label)).toEqual(['', '?']);
		expect(() => renderPicture(draft)).not.toThrow();
	});

	it('without traffic: white boxes, arrows of one width, no counts', async () => {
		const { states, edges, fill, width, xml } = await drawn();
		expect([...states.keys()]).toEqual(Object.keys(orderStatus.states));
		expect(new Set([...states.keys()].map(fill))).toEqual(new Set(['#ffffff']));
		expect(new Set([...edges.keys()].map(width))).toEqual(new Set([1.5]));
		expect(byAttribute(xml, 'data-traffic').size).toBe(0);
	});

	it('with traffic: darker for more conversations, wider for more transitions, drop-off marked', async () => {
		const { lightness, width, faded, states, xml } = await drawn(traffic);
		expect(lightness('welcome')).toBeLessThan(lightness('ask_email'));
		expect(lightness('ask_email')).toBeLessThan(lightness('human'));
		expect(lightness('human')).toBeLessThan(lightness('lookup'));
		const graph = scenarioGraph(orderStatus);
		const id = (source: string, target: string) =>
			graph.edges.find((e) => e.source === source && e.target === target)?.id ?? '';
		expect(width(id('welcome', 'ask_email'))).toBeGreaterThan(width(id(ANY, 'human')));
		expect(width(id(ANY, 'human'))).toBeGreaterThan(width(id('human', 'welcome')));
		expect(width(id('human', 'welcome'))).toBeGreaterThan(width(id('ask_email', 'human')));
		expect(faded(id('ask_email', 'human'))).toBe(true);
		expect(faded(id('welcome', 'ask_email'))).toBe(false);
		const counts = byAttribute(xml, 'data-traffic');
		expect([...counts.keys()]).toEqual(expect.arrayContaining(['1000 0', '600 60', '50 45']));
		const human = JSON.stringify(states.get('human'));
		expect(human).toContain('45 dropped off (90%)');
		expect(JSON.stringify(states.get('welcome'))).toContain('0 dropped off (0%)');
	});
});
