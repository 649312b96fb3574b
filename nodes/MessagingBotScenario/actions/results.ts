import type { IDataObject } from 'n8n-workflow';

import type { HandleResult } from '../../../runtime/scenarios';

/** One item per incoming message: what was sent, the new state and variables. */
export function resultItem(result: HandleResult): IDataObject {
	const c = result.conversation;
	return {
		status: result.status,
		message_id: result.messageId,
		bot_id: c?.botId ?? null,
		client_id: c?.clientId ?? null,
		scenario: c?.scenario ?? null,
		state: c?.state ?? null,
		vars: c?.vars ?? {},
		tags: c?.tags ?? [],
		handed_off: c?.handedOff ?? false,
		ended: c?.ended ?? false,
		sent: result.actions
			.filter((a) => a.kind === 'reply' && a.status === 'done')
			.map((a) => a.text ?? ''),
		actions: result.actions as unknown as IDataObject[],
		problems: result.problems as unknown as IDataObject[],
		restart: result.restart ?? null,
		// Handled on the older version the conversation started on (Live Conversations).
		...(result.olderVersion
			? {
					older_version: {
						version: result.olderVersion.version,
						live_version: result.olderVersion.liveVersion,
					},
				}
			: {}),
		late: result.late,
		// Healing from the client's history: a message it gave, what healing did, "off".
		...(result.healed ? { healed: true } : {}),
		...(result.healing ? { healing: result.healing as unknown as IDataObject } : {}),
		...(result.notice ? { notice: result.notice } : {}),
	};
}

/** A result goes to "Needs a Human" when it handed the client over or a person has the client. */
export function needsHuman(result: HandleResult): boolean {
	return result.handoff || result.status === 'silenced';
}
