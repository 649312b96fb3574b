import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { engineFor, scenariosFor } from '../fromParameters';
import { operations } from './index';

/** Runs the chosen operation on all input items with one engine for this execution. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const operation = this.getNodeParameter('operation', 0) as string;
	const op = operations[operation];
	if (!op)
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not known`, {
			itemIndex: 0,
		});
	if ('offline' in op) return await op.offline.call(this, scenariosFor(this));
	return await op.execute.call(this, await engineFor(this));
}
