import type { IDataObject } from 'n8n-workflow';

import { botLocator, clientLocator } from '../common';
import { locatorValue } from '../params';
import type { Operation } from '../types';

const show = { resource: ['bot'], operation: ['sendMessage'] };

export const sendMessage: Operation = {
	description: [
		{ ...botLocator, displayOptions: { show } },
		{
			...clientLocator,
			description: 'The client who receives the message',
			displayOptions: { show },
		},
		{
			displayName: 'Text',
			name: 'text',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			required: true,
			description: 'The message, up to 4,096 characters',
			displayOptions: { show },
		},
	],
	async execute(client, i) {
		const sent = await client.sendMessage(locatorValue(this, 'botId', i), {
			client_id: locatorValue(this, 'clientId', i),
			// An expression that gives nothing reads as empty text, refused as such before sending.
			text: String(this.getNodeParameter('text', i, '') ?? ''),
			type: 'text',
		});
		// Every output has message_id, null when the service gave none (A12), so later steps can
		// rely on the field being there.
		return [{ message_id: null, ...sent } as IDataObject];
	},
};
