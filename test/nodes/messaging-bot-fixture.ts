/** What the Messaging Bot node's tests share: a workflow run of the node against the emulator. */
import type { IDataObject, INode } from 'n8n-workflow';

import type { RunningEmulator } from '../emulator';
import { apiCredential } from '../helpers/emulator';
import { outputOf, runWorkflow } from '../helpers/n8n';
import { itemsIntoMessagingBot } from '../helpers/workflows';

export type Logged = { method: string; path: string; query: string; status: number };

const credentialsFor = (e: RunningEmulator, extra: IDataObject = {}) => ({
	messagingBotApi: apiCredential(e, extra),
});

export async function run(
	e: RunningEmulator,
	items: IDataObject[],
	parameters: INode['parameters'],
	extra: Partial<INode> = {},
	creds: IDataObject = {},
) {
	const result = await runWorkflow(
		itemsIntoMessagingBot(items, parameters, extra),
		credentialsFor(e, creds),
	);
	return {
		result,
		error: result.data.resultData.error,
		output: result.data.resultData.error ? [] : outputOf(result, 'Messaging Bot'),
	};
}

export const list = (value: string) => ({ __rl: true, mode: 'list', value });
