import { MessagingBotError, SendOutcomeUnknownError } from '../../api/errors';
import { performCall, type WorkflowPort } from './workflow-call';
import type { ConversationRecord, OutboxEntry } from './record';
import type { CancellableWait } from './lease-keeper';
import { checkSent, type HistoryRead, type SentCheck } from './sent-check';
import type { ClientProfile } from '../format/templates';

/** The part of the API client the engine uses; `MessagingBotClient` is one. */
export interface ScenarioApi {
	sendMessage(
		botId: string,
		input: { client_id: string; text: string },
	): Promise<{ message_id?: string }>;
	updateTags(clientId: string, change: { add?: string[]; remove?: string[] }): Promise<unknown>;
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
};

/** What became of an effect, for the record; `halt`: later effects wait (it is to be retried). */
export type Performed = { patch: Partial<OutboxEntry>; halt: boolean };

const DONE = { status: 'done', error: undefined, check: undefined } as const;

/** Performs one effect: a reply, a tag update or a workflow call. */
export async function performEffect(
	options: EffectOptions,
	record: ConversationRecord,
	entry: OutboxEntry,
): Promise<Performed> {
	const effect = entry.effect;
	if (effect.kind === 'workflow') {
		const result = await performCall(options.workflows, effect, options.wait);
		return { patch: { ...DONE, result }, halt: false };
	}
	try {
		if (effect.kind === 'tags') {
			await options.api.updateTags(record.clientId, {
				...(effect.add.length ? { add: effect.add } : {}),
				...(effect.remove.length ? { remove: effect.remove } : {}),
			});
			return { patch: DONE, halt: false };
		}
		const checked = entry.check && (await settleFromHistory(options, record, entry));
		if (checked) return checked;
		const sent = await options.api.sendMessage(record.botId, {
			client_id: record.clientId,
			text: effect.text,
		});
		return {
			patch: { ...DONE, ...(sent.message_id ? { sentId: sent.message_id } : {}) },
			halt: false,
		};
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		// Sent or not, nobody knows: recorded as unknown, never sent again.
		if (
			error instanceof SendOutcomeUnknownError ||
			(effect.kind === 'reply' && !(error instanceof MessagingBotError))
		)
			return { patch: { status: 'unknown', error: message }, halt: false };
		// Certainly not done (or safe to repeat): retried later, in order, up to maxAttempts.
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
	const read = api.iterateClientMessages?.bind(api);
	if (!read || !entry.check || entry.effect.kind !== 'reply') return unknown();
	let found: SentCheck;
	try {
		found = await checkSent(read, {
			botId: record.botId,
			clientId: record.clientId,
			text: entry.effect.text,
			since: entry.check.since,
		});
	} catch (error) {
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
