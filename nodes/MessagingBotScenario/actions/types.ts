import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { CompiledScenario, ScenarioEngine } from '../../../runtime/scenarios';

/**
 * One operation of the node: its parameters and what it does with all input items. Outputs are
 * "Handled" and "Needs a Human".
 */
export interface ScenarioOperation {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, engine: ScenarioEngine): Promise<INodeExecutionData[][]>;
}

/** An operation on the scenarios alone: no store is opened and nothing is sent. */
export interface OfflineOperation {
	description: INodeProperties[];
	offline(this: IExecuteFunctions, scenarios: CompiledScenario[]): Promise<INodeExecutionData[][]>;
}
