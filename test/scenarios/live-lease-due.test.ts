import { backends, Chat, echoTwice, stoppedWorker } from './harness';

// A worker stops (frozen) holding a reply's lease. Another process's scheduled run looks at the
// conversation every 5 s, while the lease is live and after it has run out: it leaves the reply
// alone until then, and takes it over once (the reply in doubt is reported, the next one sent).
describe.each(backends())('a scheduled run during a live lease ($name store)', (backend) => {
	it('leaves the conversation due at the lease end, and takes it over then', async () => {
		const leaseMs = 60_000;
		const chat = new Chat([echoTwice()], { openStore: backend.open });
		await chat.say('hi');
		const scenarios = await stoppedWorker(chat, leaseMs);
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
