import type { Clock } from '../../../api/clock';
import type { ScenarioApi } from '../../durability/perform-effect';
import type { HistoryRead } from '../../durability/sent-check';
import type { MessageReceived } from '../inbox';
import { showsMessage, type InboundItem, type Placement } from './missing';
import type { HealingSession } from './session';

/** The most of a history read for one healing: 10 requests of the service's largest page. */
const HEAL_READ_MAX = 10_000;
/** A history that does not yet show the message in hand is read again this often, at most. */
const CATCH_UP_READS = 4;
const CATCH_UP_MS = 1000;

/**
 * The client's history, read once (bounded), or again while it does not yet show the message
 * in hand (a service that lists a message a moment after delivering it, A39).
 */
export async function readHistory(
	o: {
		api: ScenarioApi;
		session: HealingSession;
		clock: Pick<Clock, 'now'> & Partial<Pick<Clock, 'sleep'>>;
	},
	{ botId, clientId }: Placement,
	anchor?: MessageReceived,
): Promise<InboundItem[]> {
	const { api } = o;
	if (!api.iterateClientMessages) throw new Error('this API client cannot read it');
	// In the conversation's lane of the request budget, as its replies: read in its own turn.
	const options = { max: HEAL_READ_MAX + 1, lane: `${botId}/${clientId}` };
	const read = () => (api.iterateClientMessages as HistoryRead).call(api, clientId, options);
	for (let attempt = 1; ; attempt++) {
		o.session.reads++;
		const readAt = o.clock.now();
		const items: InboundItem[] = [];
		for await (const item of read()) {
			if (items.push(item) > HEAL_READ_MAX)
				throw new Error(`it is longer than ${HEAL_READ_MAX} messages`);
		}
		const caughtUp = !anchor || showsMessage(items, anchor);
		if (caughtUp || attempt >= CATCH_UP_READS || !o.clock.sleep) {
			o.session.keepReplies(clientId, readAt, items);
			return items;
		}
		await o.clock.sleep(CATCH_UP_MS);
	}
}
