import { MessagingBotError, SendOutcomeUnknownError } from '../../api/errors';
import { checkGuard, FencedError, type RequestGuard } from '../../api/guard';
import { performCall, type WorkflowPort } from './workflow-call';
import type { ConversationRecord, OutboxEntry } from './record';
import type { CancellableWait } from './lease-keeper';
import { checkSent, type HistoryRead, type SentCheck } from './sent-check';
import type { ClientProfile } from '../format/templates';

/** The part of the API client the engine uses; `MessagingBotClient` is one. */
export interface ScenarioApi {
	/** `guard`: asked right before the request leaves; its signal cancels the waits (guard.ts). */
	sendMessage(
		botId: string,
		input: { client_id: string; text: string },
		guard?: RequestGuard,
	): Promise<{ message_id?: string }>;
	updateTags(
		clientId: string,
		change: { add?: string[]; remove?: string[] },
		guard?: RequestGuard,
	): Promise<unknown>;
	/** Read when a scenario quotes the client's profile or tests tags; without it, only the id is known. */
	getClient?(clientId: string): Promise<Partial<ClientProfile> & { id: string }>;
	/** The client's message history: settles a reply a dead worker left in doubt (`sent-check.ts`). */
	iterateClientMessages?: HistoryRead;
}

export type EffectOptions = {
	api: ScenarioApi;
	workflows?: WorkflowPort;
	wait?: CancellableWait;
	maxAttempts: number;
	/** The effect's lease: no request leaves once it is lost (fence.ts). */
	fence?: RequestGuard;
	/** A reading of the client's history already made that settles a reply's check (after a loss). */
	knownHistory?: (clientId: string) => HistoryRead | undefined;
};

/**
 * What became of an effect, for the record; `halt`: later effects wait (it is to be retried).
 * `fenced`: its lease was lost before it was done; nothing of it is written.
 */
export type Performed = { patch: Partial<OutboxEntry>; halt: boolean; fenced?: true };

const FENCED: Performed = { patch: {}, halt: true, fenced: true };

const DONE = { status: 'done', error: undefined, check: undefined } as const;

/** Performs one effect: a reply, a tag update or a workflow call. */
export async function performEffect(
	options: EffectOptions,
	record: ConversationRecord,
	entry: OutboxEntry,
): Promise<Performed> {
	const effect = entry.effect;
	const fence = options.fence;
	try {
		if (effect.kind === 'workflow') {
			// Checked here, not in the call: a lease that cannot be read back is retried, not a failure.
			await checkGuard(fence);
			const result = await performCall(options.workflows, effect, options.wait, fence);
			return result === 'fenced' ? FENCED : { patch: { ...DONE, result }, halt: false };
		}
		if (effect.kind === 'tags') {
			const change = {
				...(effect.add.length ? { add: effect.add } : {}),
				...(effect.remove.length ? { remove: effect.remove } : {}),
			};
			await options.api.updateTags(record.clientId, change, fence);
			return { patch: DONE, halt: false };
		}
		const checked = entry.check && (await settleFromHistory(options, record, entry));
		if (checked) return checked;
		const sent = await options.api.sendMessage(
			record.botId,
			{ client_id: record.clientId, text: effect.text },
			fence,
		);
		return {
			patch: { ...DONE, ...(sent.message_id ? { sentId: sent.message_id } : {}) },
			halt: false,
		};
	} catch (error) {
		if (error instanceof FencedError) return FENCED;
		const message = error instanceof Error ? error.message : String(error);
		// Sent or not, nobody knows: recorded as unknown, never sent again.
		if (
			error instanceof SendOutcomeUnknownError ||
			(effect.kind === 'reply' && !(error instanceof MessagingBotError))
		)
			return { patch: { status: 'unknown', error: message }, halt: false };
		// Certainly not done (or safe to repeat), a guard that could not be checked included:
		// retried later, in order, up to maxAttempts.
		const status = entry.attempts >= options.maxAttempts ? 'failed' : 'pending';
		return { patch: { status, error: message }, halt: true };
	}
}

/**
 * A reply whose worker stopped after leasing it: found in the client's history, it is done; not
 * there, undefined (send it now); the history unsure, or not readable, it stays unknown.
 */
async function settleFromHistory(
	options: EffectOptions,
	record: ConversationRecord,
	entry: OutboxEntry,
): Promise<Performed | undefined> {
	const stopped =
		'The worker sending this reply stopped before recording the outcome; it was not re-sent';
	const api = options.api;
	const unknown = (why?: string): Performed => ({
		patch: { status: 'unknown', error: why ? `${stopped}: ${why}` : stopped },
		halt: false,
	});
	// A reading kept from before may miss this reply only if it was sent since: on its first
	// attempt it was not (a rebuilt reply went out, if at all, before the loss); a later attempt
	// follows a lease of this store's own, whose send may be newer than any kept reading.
	const known = entry.attempts <= 1 ? options.knownHistory?.(record.clientId) : undefined;
	const read = known ?? api.iterateClientMessages?.bind(api);
	if (!read || !entry.check || entry.effect.kind !== 'reply') return unknown();
	let found: SentCheck;
	try {
		found = await checkSent(
			read,
			{
				botId: record.botId,
				clientId: record.clientId,
				text: entry.effect.text,
				since: entry.check.since,
			},
			options.fence,
		);
	} catch (error) {
		if (error instanceof FencedError) return FENCED;
		// Read again later, in order (a 429, the service down); never reported as certainly not sent.
		const message = error instanceof Error ? error.message : String(error);
		if (entry.attempts >= options.maxAttempts) return unknown(message);
		return { patch: { status: 'pending', error: message }, halt: true };
	}
	if ('unsure' in found) return unknown(found.unsure);
	if (found.sent)
		return { patch: { ...DONE, ...(found.sentId ? { sentId: found.sentId } : {}) }, halt: false };
	return undefined;
}
