import { backends, Chat, echoTwice, holdingApi, until } from './harness';

// A worker stops (frozen) holding a reply's lease. Another process's scheduled run looks at the
// conversation every 5 s, while the lease is live and after it has run out: it leaves the reply
// alone until then, and takes it over once (the reply in doubt is reported, the next one sent).
describe.each(backends())('a scheduled run during a live lease ($name store)', (backend) => {
	it('leaves the conversation due at the lease end, and takes it over then', async () => {
		const leaseMs = 60_000;
		const chat = new Chat([echoTwice()], { openStore: backend.open });
		const scenarios = [chat.engine.scenarios.values().next().value!];
		await chat.say('hi');
		const stopped = holdingApi(chat);
		stopped.hold();
		const dead = chat.newEngine(scenarios, stopped.api, { leaseMs });
		void dead.handle({ message_id: 'm2', client_id: 'cl_ada', bot_id: 'bot_shop', text: 'one' });
		await until(() => stopped.gate.waiting === 1);
		const leasedAt = chat.time;

		const other = chat.newEngine(scenarios, chat.api, { leaseMs }, backend.reopen(chat.clock.now));
		const resumedAt: number[] = [];
		for (let s = 5; s <= 120; s += 5) {
			chat.time = leasedAt + s * 1000;
			const work = await other.runDueWork();
			if (work.timers.some((t) => t.kind === 'resumed')) resumedAt.push(s);
		}
		expect(resumedAt).toEqual([60]);
		expect(chat.api.replies()).toEqual(['Hello', 'Noted']);
	});
});
