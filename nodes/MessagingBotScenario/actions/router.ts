import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { engineFor, scenariosFor } from '../fromParameters';
import { operations } from './index';
import { takeStoreNotices } from '../../shared/stateStore';

/** Runs the chosen operation on all input items with one engine for this execution. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const operation = this.getNodeParameter('operation', 0) as string;
	const op = operations[operation];
	if (!op)
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not known`, {
			itemIndex: 0,
		});
	if ('offline' in op) return await op.offline.call(this, scenariosFor(this));
	const outputs = await op.execute.call(this, await engineFor(this));
	// What the store said at connect (what a crash of it loses, a loss found), once per process.
	const first = outputs.find((items) => items.length > 0)?.[0];
	const notices = first ? takeStoreNotices() : [];
	if (first && notices.length > 0) first.json.store_notice = notices.join(' ');
	return outputs;
}
