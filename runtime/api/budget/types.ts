/**
 * Who is asking for a request slot. Interactive work (a bot's reply, a picker in the editor) is
 * served before bulk work (a marketer's job of tag updates); within a priority, slots go round the
 * lanes (a conversation, an execution) so one chatty client or one big job never starves the rest.
 */
export type Priority = 'interactive' | 'bulk';

/** Served first to last. */
export const PRIORITIES: readonly Priority[] = ['interactive', 'bulk'];

export interface SlotRequest {
	priority: Priority;
	/** Requests of one lane are served in the order they asked. */
	lane: string;
}

/**
 * Where slots come from: this process's own count, or one count shared through Redis by every
 * process on the key. `take` either takes a slot now (returns 0) or says how many milliseconds to
 * wait before asking again.
 */
export interface SlotSource {
	/** `waiting`: the priorities this process still has callers of once this one is served. */
	take(priority: Priority, waiting: ReadonlySet<Priority>): Promise<number>;
	/** After a 429: no request leaves before `ms` from now, whoever sends it. */
	block(ms: number): Promise<void>;
	/** Another credential on the same key asks for less: the strictest setting wins. */
	tighten(limit: number, windowMs: number): void;
	readonly limit: number;
	readonly windowMs: number;
}

/**
 * The margin added to the window: it absorbs the difference between our send time and the
 * service's arrival time. 250 ms on the service's 60 s window (0.4 %); 2.5 % of a scaled one.
 */
export function marginFor(windowMs: number): number {
	return Math.min(250, windowMs / 40);
}

/**
 * Slots of each window that bulk work leaves free, so a reply never waits for a window that a
 * job filled: 2 of the service's 100 (the job takes 2 % longer), 1 of a smaller limit, none
 * below 10, where one slot is too large a share.
 */
export function reserveFor(limit: number): number {
	return limit < 10 ? 0 : Math.max(1, Math.floor(limit / 50));
}
