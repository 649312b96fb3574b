import { largeScenario } from '../../bench/picture-fixture';
import { scenarioGraph } from '../../runtime/scenarios/offline/picture/graph';
import { laneEdges } from '../../runtime/scenarios/offline/picture/lanes';
import { layoutGraph } from '../../runtime/scenarios/offline/picture/layout';
import { pictureScene } from '../../runtime/scenarios/offline/picture/scene';

/**
 * The picture draws the long arrows into a hand-off (a state three or more others lead to) in
 * lanes on its right, not through dagre, which kept each straight down the whole picture and
 * shifted the main path aside for the next: the bench's 60 states, a hand-off every fifth.
 */

const doc = largeScenario(60);
const graph = scenarioGraph(doc);
const laned = laneEdges(graph.edges);

describe('hand-off arrows in lanes', () => {
	it('takes the long arrows into the hand-off, and only those; the shortest stays dagre’s', () => {
		const help = graph.edges.filter((e) => e.target === 'human');
		expect(help).toHaveLength(12);
		expect(help.filter((e) => !laned.has(e.id)).map((e) => e.source)).toEqual(['step_55']);
		expect(graph.edges.filter((e) => laned.has(e.id) && e.target !== 'human')).toEqual([]);
	});

	it('routes each from its state’s right side along its own lane into the hand-off’s', () => {
		const layout = layoutGraph(graph, { lanes: true });
		expect(layout.edges.map((e) => e.id).sort()).toEqual(graph.edges.map((e) => e.id).sort());
		const box = (id: string) => layout.nodes.find((n) => n.id === id)!;
		const rightmost = Math.max(...layout.nodes.map((n) => n.x + n.width));
		const human = box('human');
		const lanes = new Set<number>();
		for (const edge of layout.edges.filter((e) => laned.has(e.id))) {
			const [first, last] = [edge.points[0], edge.points[edge.points.length - 1]];
			const from = box(edge.source);
			expect(first.x).toBe(from.x + from.width);
			expect(first.y).toBeGreaterThan(from.y);
			expect(first.y).toBeLessThan(from.y + from.height);
			expect(last.x).toBe(human.x + human.width);
			const lane = Math.max(...edge.points.map((p) => p.x));
			expect(lane).toBeGreaterThan(rightmost);
			expect(lane).toBeLessThan(layout.width);
			lanes.add(lane);
			// Its label beside its state, where the arrow leaves it.
			expect(edge.labelX).toBeGreaterThan(first.x);
			expect(Math.abs(edge.labelY - first.y)).toBeLessThan(20);
		}
		expect(lanes.size).toBe(11);
	});

	it('makes the picture half as wide as dagre alone lays it out', () => {
		const alone = layoutGraph(graph);
		const scene = pictureScene(doc);
		expect(scene.width).toBeLessThan(alone.width * 0.6);
		expect(scene.width).toBeLessThan(900);
	});

	it('takes arrows out of one state to two hand-offs out at different heights, their labels apart', () => {
		const states: Record<string, unknown> = {};
		for (let i = 0; i < 10; i++)
			states[`s${i}`] = {
				messages: [`Step ${i}`],
				on: [
					...(i < 9 ? [{ match: { contains: ['next'] }, target: `s${i + 1}` }] : []),
					...(i % 4 === 0 ? [{ match: { contains: ['agent'] }, target: 'human' }] : []),
					...(i % 4 === 0 ? [{ match: { contains: ['billing'] }, target: 'billing' }] : []),
				],
			};
		states.human = { messages: ['A person answers.'] };
		states.billing = { messages: ['Billing answers.'] };
		const two = scenarioGraph({ id: 'two', version: 1, start: 's0', states });
		const lanes = laneEdges(two.edges);
		const layout = layoutGraph(two, { lanes: true });
		const out = layout.edges.filter((e) => lanes.has(e.id) && e.source === 's0');
		expect(out.map((e) => e.target).sort()).toEqual(['billing', 'human']);
		const [a, b] = out;
		expect(a.points[0].y).not.toBe(b.points[0].y);
		// Each label 17 px high: apart when their middles are.
		expect(Math.abs(a.labelY - b.labelY)).toBeGreaterThanOrEqual(17);
	});

	it('leaves a scenario without a hand-off as dagre lays it out', () => {
		const small = scenarioGraph(largeScenario(4));
		expect(laneEdges(small.edges).size).toBe(0);
		const withLanes = layoutGraph(small, { lanes: true });
		const without = layoutGraph(small);
		expect({ ...withLanes, ms: 0 }).toEqual({ ...without, ms: 0 });
	});
});
