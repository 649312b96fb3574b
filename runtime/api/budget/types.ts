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
	/** The caller gives up: it leaves the queue, and its promise rejects with the signal's reason. */
	signal?: AbortSignal;
}

/** A slot taken (its id, to settle once the request is answered), or how long to wait first. */
export type Take = { slot: string } | { wait: number };

/**
 * Where slots come from: this process's own count, or one count shared through Redis by every
 * process on the key. A slot counts from when its request is answered (the service received it
 * by then, at the latest); until then it holds its place in the window.
 */
export interface SlotSource {
	/** `waiting`: the priorities this process still has callers of once this one is served. */
	take(priority: Priority, waiting: ReadonlySet<Priority>): Promise<Take>;
	/** The slot's request was answered, or failed: it counts from now. */
	settle(slot: string): Promise<void>;
	/** After a 429: no request leaves before `ms` from now, whoever sends it. */
	block(ms: number): Promise<void>;
	/** Another credential on the same key asks for less: the strictest setting wins. */
	tighten(limit: number, windowMs: number): void;
	readonly limit: number;
	readonly windowMs: number;
}

/**
 * The margin added to the window, for the service's clock: slots already count from the answer,
 * which comes after the service counted the request. 250 ms on the service's 60 s window
 * (0.4 %); 1 % of a scaled one.
 */
export function marginFor(windowMs: number): number {
	return Math.min(250, windowMs / 100);
}

/** How often to look again while the slot that would free is still waiting for its answer. */
export function pollFor(limit: number, span: number): number {
	return Math.max(5, Math.round(span / limit));
}

/**
 * Slots of each window that bulk work leaves free while the key answers clients, so a reply never
 * waits for a window that a job filled: 2 of the service's 100 (the job takes 2 % longer), 1 of a
 * smaller limit, none below 10, where one slot is too large a share.
 */
export function reserveFor(limit: number): number {
	return limit < 10 ? 0 : Math.max(1, Math.floor(limit / 50));
}

/**
 * How long the reserve is kept after the last interactive request: an hour at the service's
 * limit. A key that has answered no client for that long gives bulk work the whole window.
 */
export const RESERVE_WINDOWS = 60;
