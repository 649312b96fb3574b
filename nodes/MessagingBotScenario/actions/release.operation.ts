import type { IDataObject } from 'n8n-workflow';

import { botIdField, clientIdField, perConversation } from './common';
import type { ScenarioOperation } from './types';

const show = { operation: ['release'] };

/** Release to Bot: a person is done with a handed-off client; the bot answers this client again. */
export const release: ScenarioOperation = {
	description: [
		{ ...botIdField, displayOptions: { show } },
		{ ...clientIdField, displayOptions: { show } },
	],
	async execute(engine) {
		return await perConversation(this, async (botId, clientId) => {
			const r = await engine.release(botId, clientId);
			return {
				released: r.released,
				conversation: (r.conversation ?? null) as IDataObject | null,
				actions: r.actions as unknown as IDataObject[],
			};
		});
	},
};
