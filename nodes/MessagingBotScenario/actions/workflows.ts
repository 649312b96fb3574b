import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import {
	calledWorkflows,
	type CompiledScenario,
	type WorkflowPort,
} from '../../../runtime/scenarios';

type Mapping = { name?: string; workflow?: string | { value?: string } };

/**
 * The node's Workflows: scenario names mapped to n8n workflows, picked as the Execute Workflow
 * node picks one (from the list, or by ID). Calls run with n8n's executeWorkflow, one input item
 * holding the rendered inputs; the first item of the result is the call's result.
 */
export function workflowPort(
	ctx: IExecuteFunctions,
	scenarios: readonly CompiledScenario[],
): WorkflowPort {
	const mappings = ctx.getNodeParameter('workflows.workflow', 0, []) as Mapping[];
	const ids = new Map<string, string>();
	for (const m of mappings) {
		const id = typeof m.workflow === 'string' ? m.workflow : m.workflow?.value;
		if (m.name?.trim() && id) ids.set(m.name.trim(), String(id));
	}
	const missing = scenarios.flatMap((s) =>
		[...calledWorkflows(s.document)].filter((name) => !ids.has(name)).map((n) => `${s.id}: ${n}`),
	);
	if (missing.length > 0)
		throw new NodeOperationError(ctx.getNode(), 'A workflow the scenario calls is not connected', {
			description: `Add it under Workflows (its name, and the workflow to run): ${missing.join(', ')}`,
		});
	return {
		call: async (name, inputs) => {
			const id = ids.get(name);
			if (!id) throw new Error(`No workflow is connected as "${name}"`);
			const run = await ctx.executeWorkflow({ id }, [{ json: inputs }], undefined, {
				parentExecution: {
					executionId: ctx.getExecutionId(),
					workflowId: ctx.getWorkflow().id ?? '',
				},
			});
			return run.data?.[0]?.[0]?.json;
		},
	};
}
