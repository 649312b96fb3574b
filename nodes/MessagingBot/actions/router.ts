import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Priority } from '../../../runtime/api';
import { clientFor } from '../../shared/transport';
import { errorItem, toNodeError } from '../../shared/errors';
import * as bot from './bot';
import * as client from './client';
import type { Operation } from './types';

const resources: Record<string, Record<string, Operation>> = {
	bot: bot.operations,
	client: client.operations,
};

/** Runs the chosen operation once per input item; one shared client keeps one request budget. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const priority = this.getNodeParameter('requestOptions.priority', 0, 'bulk') as Priority;
	const api = await clientFor(this, priority);
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		const resource = this.getNodeParameter('resource', i) as string;
		const operation = this.getNodeParameter('operation', i) as string;
		const op = resources[resource]?.[operation];
		try {
			if (!op) throw new Error(`The operation "${operation}" of "${resource}" is not known`);
			const results = await op.execute.call(this, api, i);
			for (const json of results) out.push({ json, pairedItem: { item: i } });
		} catch (error) {
			const nodeError = toNodeError(this.getNode(), error, i);
			if (!this.continueOnFail()) throw nodeError;
			out.push({ json: errorItem(nodeError), error: nodeError, pairedItem: { item: i } });
		}
	}
	return [out];
}
