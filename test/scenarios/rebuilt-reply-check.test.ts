import { performEffect } from '../../runtime/scenarios/durability/perform-effect';
import type { ConversationRecord, OutboxEntry } from '../../runtime/scenarios/durability/record';
import { healingFixture } from './healing-fixture';

// After a loss, a rebuilt reply is looked for in a reading of the history kept from after the loss
// was found (every reply sent before the loss is in it). That holds on the reply's first attempt
// only: a later attempt follows a lease taken since, whose send the kept reading may not show.
describe('a rebuilt reply looked for in a kept reading of the history', () => {
	const { write, transcript, historyReads, client } = healingFixture('default');
	const record = { botId: 'bot_shop', clientId: 'cl_grace' } as ConversationRecord;
	const entry = (attempts: number): OutboxEntry => ({
		id: 1,
		cause: 'm',
		effect: { kind: 'reply', text: 'your order is on its way' },
		status: 'sending',
		attempts,
		check: { since: Date.now() - 1000 },
	});
	// A reading kept from before the reply went out: it does not show it.
	const stale = () => async function* () {};
	const settle = async (attempts: number) =>
		await performEffect(
			{ api: client(), maxAttempts: 3, knownHistory: stale },
			record,
			entry(attempts),
		);

	it('on a later attempt, reads the history again and finds the reply its lease sent', async () => {
		await write('where is my order?');
		await client().sendMessage('bot_shop', {
			client_id: 'cl_grace',
			text: 'your order is on its way',
		});
		const reads = await historyReads();
		const done = await settle(2);
		expect(done.patch).toMatchObject({ status: 'done' });
		expect((await historyReads()) - reads).toBe(1);
		expect(await transcript()).toEqual(['your order is on its way']);
	});

	it('on its first attempt, uses the kept reading: no request of the service budget', async () => {
		await write('where is my order?');
		const reads = await historyReads();
		const sent = await settle(1);
		expect(sent.patch).toMatchObject({ status: 'done' });
		expect((await historyReads()) - reads).toBe(0);
		expect(await transcript()).toEqual(['your order is on its way']);
	});
});
