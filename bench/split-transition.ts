/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import type { CompiledScenario } from '../runtime/scenarios';
import type { ScenarioEvent } from '../runtime/scenarios/machine/setup';
import { order } from './order-traffic';
import { withSplit } from './split-scenario';
import { table } from './lib';

/**
 * The split step's cost in the machine alone: one `step()` (xstate's pure `transition()` and the
 * effects collected) from "status" on "order", straight to "ask_number" in the example and
 * through the 50/50 split in split-overhead.ts's scenario, a client whose variant is kept (every
 * pass but its first) and a new one. Same run, ROUNDS alternating rounds; the medians and their
 * ratio are printed. It says where a split's cost is (split-overhead.ts says whether it matters).
 */
const ROUNDS = Number(process.env.BENCH_TRANSITION_ROUNDS ?? 40);
const STEPS = Number(process.env.BENCH_TRANSITION_STEPS ?? 5_000);

const context = {
	vars: {},
	client: { id: 'cl_1', tags: [] },
	tries: 0,
	handedOff: false,
	jump: null,
	order: null,
};
const event = {
	type: 'MESSAGE',
	message: { text: 'order', message_id: 'm', client_id: 'cl_1', bot_id: 'bot_shop' },
} as unknown as ScenarioEvent;

/** µs a step, from `state` with these splits kept. */
function timed(scenario: CompiledScenario, splits?: Record<string, unknown>): () => number {
	const snapshot = scenario.restore({
		value: 'status',
		context: (splits ? { ...context, splits } : context) as never,
	});
	return () => {
		const started = process.hrtime.bigint();
		for (let i = 0; i < STEPS; i++) scenario.step(snapshot, event);
		return Number(process.hrtime.bigint() - started) / 1e3 / STEPS;
	};
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

function main(): void {
	const split = withSplit(order.document);
	const sides = {
		plain: timed(order),
		kept: timed(split, { bench: { variant: 'a' } }),
		drawn: timed(split),
	};
	const times = { plain: [] as number[], kept: [] as number[], drawn: [] as number[] };
	for (const run of Object.values(sides)) run(); // warm-up
	for (let round = 0; round < ROUNDS; round++)
		for (const [name, run] of Object.entries(sides)) times[name as keyof typeof times].push(run());
	const [plain, kept, drawn] = [median(times.plain), median(times.kept), median(times.drawn)];
	process.stdout.write(
		`One step from "status" on "order", ${STEPS.toLocaleString('en')} steps a round, median of ${ROUNDS} alternating rounds:\n`,
	);
	process.stdout.write(
		`${table([
			{
				'µs a step, no split': plain.toFixed(1),
				'through the split, variant kept': kept.toFixed(1),
				'variant drawn': drawn.toFixed(1),
				'ratio, kept': (plain / kept).toFixed(3),
				'ratio, drawn': (plain / drawn).toFixed(3),
			},
		])}\n`,
	);
}

main();
