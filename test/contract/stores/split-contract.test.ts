import type { StateStore } from '../../../runtime/stores';
import { greetingOf, greetingTest } from '../../scenarios/split-fixture';
import { Chat } from '../../scenarios/harness';
import { backends, cleanUp } from './backends';

afterAll(cleanUp);

const DAY = '2026-01-05';

// The split counters through the engine's real steps, in the record's own write, on every store.
describe.each(backends)('split counters: $name', (backend) => {
	let store: StateStore | undefined;
	afterEach(async () => store?.close());

	it('counts each client once in its variant, and its goal once, whatever it does after', async () => {
		const chat = new Chat([greetingTest()], { openStore: (now) => (store = backend.open(now)) });
		const seen = new Map<string, string>();
		for (let i = 0; i < 30; i++) seen.set(`cl_${i}`, greetingOf(await chat.say('hi', `cl_${i}`)));
		const ordered = new Set<string>();
		for (let i = 0; i < 30; i += 3) {
			await chat.say('yes', `cl_${i}`);
			ordered.add(`cl_${i}`);
		}
		// Back through the split (a loop, a new conversation after the end), then ordering again.
		for (let i = 0; i < 30; i++) await chat.say('hi again', `cl_${i}`);
		for (let i = 0; i < 30; i += 3) await chat.say('yes', `cl_${i}`);
		const expected = (variant: string) => {
			const clients = [...seen].filter(([, v]) => v === variant).map(([c]) => c);
			return {
				variant,
				clients: clients.length,
				goal: clients.filter((c) => ordered.has(c)).length,
			};
		};
		const report = await chat.engine.analytics({ from: DAY, to: DAY, now: chat.time });
		expect(report.splits).toHaveLength(1);
		expect(report.splits[0]).toMatchObject({ scenario: 'test', test: 'greeting' });
		expect(
			report.splits[0].variants.map(({ variant, clients, goal }) => ({ variant, clients, goal })),
		).toEqual([expected('short'), expected('warm')]);
		expect(report.splits[0].verdict.ready).toBe(false);
	});
});
