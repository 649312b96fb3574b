// What the store's reads give back: a record with its version, inbox entries, and both at once.

export interface Versioned {
	value: string;
	/** Starts at 1 and grows by one with every write. */
	version: number;
}

/** One entry of an inbox queue. */
export interface QueuedEntry {
	/** Grows with every append in the namespace: the order the entries were accepted in. */
	seq: number;
	value: string;
	/** When it was appended (the store's clock). */
	at: number;
}

/** Where a conversation's record and inbox are: `read`'s and `queued`'s arguments. */
export interface ConversationAt {
	recordNamespace: string;
	key: string;
	inboxNamespace: string;
	queue: string;
	/** The most inbox entries read. */
	limit: number;
}

/** A conversation as a step starts from: its record and the first entries of its inbox. */
export interface ConversationRead {
	record: Versioned | undefined;
	/** Lowest seq first. */
	queued: QueuedEntry[];
}
