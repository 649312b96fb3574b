import { randomBytes } from 'node:crypto';

/** In-memory records of the service. Field names follow the spec; additions are documented. */
type BotStatus = 'active' | 'inactive';

export interface Bot {
	id: string;
	name: string;
	status: BotStatus;
	created_at: string;
	channels: string[];
	scenarios: string[];
	active_scenario_id: string | null;
}

export interface Client {
	id: string;
	email: string | null;
	phone: string | null;
	first_name: string | null;
	last_name: string | null;
	custom_fields: Record<string, unknown>;
	tags: string[];
	created_at: string;
	updated_at: string;
}

export interface HistoryMessage {
	message_id: string;
	client_id: string;
	bot_id: string;
	direction: 'inbound' | 'outbound';
	text: string;
	type: string;
	channel: string;
	timestamp: string;
}

export interface Order {
	order_id: string;
	client_id: string;
	status: string;
	total: number;
	currency: string;
	created_at: string;
	updated_at: string;
	[extra: string]: unknown;
}

export function newId(prefix: string): string {
	return `${prefix}_${randomBytes(8).toString('hex')}`;
}

export class EmulatorState {
	bots = new Map<string, Bot>();
	clients = new Map<string, Client>();
	/** Insertion order is creation order, which search results follow. */
	clientOrder: string[] = [];
	messages: HistoryMessage[] = [];
	messagesByClient = new Map<string, HistoryMessage[]>();
	orders = new Map<string, Order>();

	addBot(bot: Bot): Bot {
		this.bots.set(bot.id, bot);
		return bot;
	}

	addClient(client: Client): Client {
		this.clients.set(client.id, client);
		this.clientOrder.push(client.id);
		return client;
	}

	findClientByEmailOrPhone(email?: string | null, phone?: string | null): Client | undefined {
		// Email wins over phone when they point at two different clients (documented).
		if (email) {
			const wanted = email.toLowerCase();
			for (const c of this.clients.values()) if (c.email?.toLowerCase() === wanted) return c;
		}
		if (phone) {
			for (const c of this.clients.values()) if (c.phone === phone) return c;
		}
		return undefined;
	}

	addMessage(message: HistoryMessage): HistoryMessage {
		this.messages.push(message);
		const list = this.messagesByClient.get(message.client_id) ?? [];
		list.push(message);
		this.messagesByClient.set(message.client_id, list);
		return message;
	}

	historyOf(clientId: string): HistoryMessage[] {
		return this.messagesByClient.get(clientId) ?? [];
	}

	ordersOf(clientId: string): Order[] {
		return [...this.orders.values()].filter((o) => o.client_id === clientId);
	}

	/** The channel a bot should answer a client on: the client's last one with that bot. */
	channelFor(bot: Bot, clientId: string): string {
		const history = this.historyOf(clientId);
		for (let i = history.length - 1; i >= 0; i--) {
			if (history[i].bot_id === bot.id) return history[i].channel;
		}
		return bot.channels[0] ?? 'telegram';
	}
}

/** A few bots and clients so that a user trying the nodes has something to look at. */
export function seed(state: EmulatorState, nowIso: string): void {
	const day = (offset: number) => new Date(Date.parse(nowIso) - offset * 86_400_000).toISOString();
	state.addBot({
		id: 'bot_shop',
		name: 'Shop Assistant',
		status: 'active',
		created_at: day(90),
		channels: ['telegram', 'whatsapp'],
		scenarios: ['welcome', 'order_status'],
		active_scenario_id: 'welcome',
	});
	state.addBot({
		id: 'bot_support',
		name: 'Support Desk',
		status: 'active',
		created_at: day(60),
		channels: ['telegram'],
		scenarios: ['support'],
		active_scenario_id: null,
	});
	state.addBot({
		id: 'bot_legacy',
		name: 'Legacy Bot',
		status: 'inactive',
		created_at: day(400),
		channels: ['whatsapp'],
		scenarios: ['welcome'],
		active_scenario_id: null,
	});
	const people: Array<[string, string, string, string, string[]]> = [
		['cl_ada', 'ada@example.com', '+442071234567', 'Ada', ['customer', 'vip']],
		['cl_grace', 'grace@example.com', '+12025550123', 'Grace', ['lead']],
		['cl_alan', 'alan@example.com', '+441632960001', 'Alan', []],
		['cl_katherine', 'katherine@example.com', '+12025550188', 'Katherine', ['customer']],
		['cl_linus', 'linus@example.com', '+358401234567', 'Linus', ['lead', 'newsletter']],
	];
	const lastNames: Record<string, string> = {
		Ada: 'Lovelace',
		Grace: 'Hopper',
		Alan: 'Turing',
		Katherine: 'Johnson',
		Linus: 'Torvalds',
	};
	people.forEach(([id, email, phone, first, tags], i) => {
		state.addClient({
			id,
			email,
			phone,
			first_name: first,
			last_name: lastNames[first],
			custom_fields: i === 0 ? { loyalty: { tier: 'gold', points: 1200 } } : {},
			tags,
			created_at: day(30 - i * 5),
			updated_at: day(30 - i * 5),
		});
	});
	state.addMessage({
		message_id: 'msg_seed_1',
		client_id: 'cl_ada',
		bot_id: 'bot_shop',
		direction: 'inbound',
		text: 'Hi, where is my order?',
		type: 'text',
		channel: 'telegram',
		timestamp: day(2),
	});
	state.addMessage({
		message_id: 'msg_seed_2',
		client_id: 'cl_ada',
		bot_id: 'bot_shop',
		direction: 'outbound',
		text: 'Hello Ada! Your order #1001 ships tomorrow.',
		type: 'text',
		channel: 'telegram',
		timestamp: day(2),
	});
	state.orders.set('ord_1001', {
		order_id: 'ord_1001',
		client_id: 'cl_ada',
		status: 'paid',
		total: 49.9,
		currency: 'EUR',
		created_at: day(3),
		updated_at: day(3),
	});
}
