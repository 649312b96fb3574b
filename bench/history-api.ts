import { RecordingApi, type MessageReceived } from '../runtime/scenarios';
import type { HistoryItem } from '../runtime/scenarios/durability/sent-check';

/**
 * The in-process stand-in for the service, with the client's message history the engine heals
 * from (as `MessagingBotClient` has it): the messages the clients wrote, kept as `wrote` says, and
 * how often the history was read.
 */
export class HistoryApi extends RecordingApi {
	reads = 0;
	private readonly history = new Map<string, HistoryItem[]>();

	/** The client wrote: the service lists it (A39) whether or not it is delivered. */
	wrote(event: MessageReceived): void {
		const list = this.history.get(event.client_id) ?? [];
		list.push({
			message_id: event.message_id,
			bot_id: event.bot_id,
			direction: 'inbound',
			text: event.text,
			...(event.timestamp ? { timestamp: event.timestamp } : {}),
		});
		this.history.set(event.client_id, list);
	}

	async *iterateClientMessages(clientId: string): AsyncGenerator<HistoryItem> {
		this.reads++;
		yield* this.history.get(clientId) ?? [];
	}
}
