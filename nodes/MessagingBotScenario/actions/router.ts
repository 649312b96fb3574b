import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { engineFor, scenariosFor } from '../engine';
import { offlineOperations, operations } from './index';

/** Runs the chosen operation on all input items with one engine for this execution. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const operation = this.getNodeParameter('operation', 0) as string;
	const offline = offlineOperations[operation];
	if (offline) return await offline.call(this, scenariosFor(this));
	const op = operations[operation];
	if (!op) throw new Error(`The operation "${operation}" is not known`);
	return await op.execute.call(this, await engineFor(this));
}
