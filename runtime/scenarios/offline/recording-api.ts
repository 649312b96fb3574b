import type { ScenarioApi } from '../durability/perform-effect';
import { changeTags } from '../../tags';
import type { ClientProfile } from '../format/templates';

export type RecordedCall =
	| { kind: 'reply'; botId: string; clientId: string; text: string; sentId: string }
	| { kind: 'tags'; clientId: string; add: string[]; remove: string[] };

/**
 * An in-process stand-in for the service: records every reply and tag update, keeps client
 * profiles. For the CLI's offline chat, tests and benchmarks, which measure the runtime, not HTTP.
 */
export class RecordingApi implements ScenarioApi {
	readonly calls: RecordedCall[] = [];
	private readonly clients = new Map<string, ClientProfile>();
	private sent = 0;

	constructor(clients: ClientProfile[] = []) {
		for (const client of clients)
			this.clients.set(client.id, { ...client, tags: [...client.tags] });
	}

	async sendMessage(
		botId: string,
		input: { client_id: string; text: string },
	): Promise<{ message_id: string }> {
		const sentId = `sent_${++this.sent}`;
		this.calls.push({ kind: 'reply', botId, clientId: input.client_id, text: input.text, sentId });
		return { message_id: sentId };
	}

	async updateTags(
		clientId: string,
		change: { add?: string[]; remove?: string[] },
	): Promise<unknown> {
		const add = change.add ?? [];
		const remove = change.remove ?? [];
		this.calls.push({ kind: 'tags', clientId, add, remove });
		const client = this.clients.get(clientId) ?? { id: clientId, tags: [] };
		client.tags = changeTags(client.tags, { add, remove });
		this.clients.set(clientId, client);
		return client;
	}

	async getClient(clientId: string): Promise<ClientProfile> {
		const client = this.clients.get(clientId) ?? { id: clientId, tags: [] };
		return { ...client, tags: [...client.tags] };
	}

	/** The texts sent to a client (or to everyone), in order. */
	replies(clientId?: string): string[] {
		return this.calls.flatMap((c) =>
			c.kind === 'reply' && (clientId === undefined || c.clientId === clientId) ? [c.text] : [],
		);
	}
}
