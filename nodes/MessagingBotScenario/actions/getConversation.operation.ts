import type { IDataObject } from 'n8n-workflow';

import { botIdField, clientIdField, perConversation } from './common';
import type { ScenarioOperation } from './types';

const show = { operation: ['getConversation'] };

/** Get Conversation: the state, variables and last actions of a client's conversation. */
export const getConversation: ScenarioOperation = {
	description: [
		{ ...botIdField, displayOptions: { show } },
		{ ...clientIdField, displayOptions: { show } },
	],
	async execute(engine) {
		return await perConversation(this, async (botId, clientId) => {
			const conversation = await engine.conversation(botId, clientId);
			return (conversation ? { found: true, ...conversation } : { found: false }) as IDataObject;
		});
	},
};
