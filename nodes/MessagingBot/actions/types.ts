import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { MessagingBotClient } from '../../../runtime/api';

/** One operation of the node: its parameters and what it does for one input item. */
export interface Operation {
	description: INodeProperties[];
	execute(
		this: IExecuteFunctions,
		client: MessagingBotClient,
		itemIndex: number,
	): Promise<IDataObject[]>;
}
