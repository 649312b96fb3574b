import type { MessagingBotClient } from './client';
import type { TagUpdate, UpdateTagsInput } from './schemas';

/**
 * A tag update that says what changed: `tags_added` holds only tags the client did not have,
 * `tags_removed` only tags it had, so a workflow can branch on "newly tagged". The service's
 * answer need not say (A21: adding a present tag is a no-op; the answer is the updated record),
 * so the client's tags are read first and compared with the change (and with the record that
 * comes back, when it does). When the service names a change other than the one asked for, its
 * words stand. `readFirst: false` saves that read (a bulk job: one request a client); the lists
 * then repeat the change asked for.
 */
export async function changeTags(
	api: Pick<MessagingBotClient, 'getClient' | 'updateTags'>,
	clientId: string,
	change: UpdateTagsInput,
	options: { readFirst?: boolean } = {},
): Promise<TagUpdate> {
	const before =
		options.readFirst === false ? undefined : new Set((await api.getClient(clientId)).tags ?? []);
	const update = await api.updateTags(clientId, change);
	const after = Array.isArray(update.tags) ? new Set(update.tags.map(String)) : undefined;
	const asked = (list: string[] | undefined) => [...new Set((list ?? []).map((t) => t.trim()))];
	const add = asked(change.add);
	const remove = asked(change.remove);
	return {
		...update,
		tags_added:
			named(update.tags_added, add) ??
			add.filter((t) => !before?.has(t) && (after?.has(t) ?? true)),
		tags_removed:
			named(update.tags_removed, remove) ??
			remove.filter((t) => (before ? before.has(t) && !after?.has(t) : true)),
	};
}

/** The service's own list, when it differs from the change asked for (the client's default). */
function named(list: unknown, asked: string[]): string[] | undefined {
	if (!Array.isArray(list)) return undefined;
	const same = list.length === asked.length && list.every((t, i) => String(t) === asked[i]);
	return same ? undefined : list.map(String);
}
