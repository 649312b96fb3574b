/* eslint-disable @n8n/community-nodes/require-node-api-error -- the studio server runs in a terminal, never loaded by n8n */
import { validateScenario } from '../../scenarios/format/validate';

/**
 * A workflow as n8n's public API returns it, and the body its PUT takes back: what the studio
 * reads from a workflow (its Scenario nodes) and changes in it (one Scenario field, and its
 * copies), everything else sent back as read. Checked against n8n 2.41.
 */

interface N8nNode {
	name: string;
	type: string;
	parameters?: Record<string, unknown>;
	[field: string]: unknown;
}

export interface N8nWorkflow {
	id: string;
	name: string;
	nodes: N8nNode[];
	connections: unknown;
	settings?: Record<string, unknown>;
	active?: boolean;
	versionId?: string;
	activeVersionId?: string | null;
}

/** A Scenario node as the studio lists it; `scenario` is absent when the field holds no scenario. */
export interface ScenarioNode {
	name: string;
	operation: string;
	scenario?: string;
	/** Why the node cannot be opened (its field is an expression, or not JSON). */
	problem?: string;
}

export class N8nError extends Error {
	constructor(
		readonly status: number,
		message: string,
		/** n8n's answer, for a caller that tells its refusals apart. */
		readonly answer?: Record<string, unknown>,
	) {
		super(message);
	}
}

/** The fields of a node n8n 2.41's PUT accepts (it refuses a node with any other). */
const WRITABLE_NODE_FIELDS = new Set([
	'id',
	'name',
	'webhookId',
	'disabled',
	'notesInFlow',
	'notes',
	'type',
	'typeVersion',
	'executeOnce',
	'alwaysOutputData',
	'retryOnFail',
	'maxTries',
	'waitBetweenTries',
	'continueOnFail',
	'onError',
	'position',
	'parameters',
	'credentials',
	'customTelemetryTags',
]);
/** Set by n8n, refused on PUT. */
const READ_ONLY_NODE_FIELDS = new Set(['createdAt', 'updatedAt']);

/**
 * The settings n8n 2.41's PUT accepts. n8n merges the ones sent into the workflow's settings, so
 * one left out keeps its value.
 */
const WRITABLE_SETTINGS = new Set([
	'saveExecutionProgress',
	'saveManualExecutions',
	'saveDataErrorExecution',
	'saveDataSuccessExecution',
	'executionTimeout',
	'errorWorkflow',
	'timezone',
	'executionOrder',
	'binaryMode',
	'callerPolicy',
	'callerIds',
	'timeSavedMode',
	'timeSavedPerExecution',
	'redactionPolicy',
	'availableInMCP',
	'customTelemetryTags',
	'credentialResolverId',
]);

const isScenarioNode = (node: N8nNode) => /(^|\.)messagingBotScenario$/.test(node.type);

/** The node's Scenario field as a scenario object, or why it is not one. */
function fieldScenario(node: N8nNode): { value?: unknown; problem?: string } {
	const raw = node.parameters?.scenario;
	// An unset field runs the node's built-in example, which the API does not return.
	if (raw === undefined) return { problem: 'its Scenario field is unset (the built-in example)' };
	if (typeof raw !== 'string') return { value: raw };
	// A document pasted into an emptied field is stored as an expression ("={…}"); the node reads it as written.
	const text = raw.startsWith('=') ? raw.slice(1) : raw;
	// As the node reads it: a document starts with "[" or "{", an expression with "{{".
	if (raw.startsWith('=') && !/^\s*(\[|\{(?!\{))/.test(text))
		return { problem: 'its Scenario field is an expression, built when the workflow runs' };
	try {
		return { value: JSON.parse(text) };
	} catch (error) {
		return { problem: `its Scenario field is not JSON (${(error as Error).message})` };
	}
}

export function scenarioNodes(workflow: N8nWorkflow): ScenarioNode[] {
	return workflow.nodes.filter(isScenarioNode).map((node) => {
		const { value, problem } = fieldScenario(node);
		return {
			name: node.name,
			operation: String(node.parameters?.operation ?? 'handleMessage'),
			...(problem ? { problem } : { scenario: JSON.stringify(value, null, 2) }),
		};
	});
}

/** Published, with changes saved in n8n's editor since: a save must not publish those too. */
export function hasUnpublishedChanges(workflow: N8nWorkflow): boolean {
	return Boolean(
		workflow.activeVersionId &&
			workflow.versionId &&
			workflow.activeVersionId !== workflow.versionId,
	);
}

export const isPublished = (workflow: N8nWorkflow) =>
	Boolean(workflow.activeVersionId ?? workflow.active);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export interface ScenarioChange {
	nodeName: string;
	scenario: string;
	/** The scenario as the studio opened (or last saved) it: a save over someone else's change is refused. */
	baseline: string;
}

/**
 * Writes the scenario into the named Scenario node, and into every other Scenario node of the
 * workflow that holds the same scenario (as order-status's Handle Message and Fire Timers do, so
 * timers never run an older version). Returns the names written.
 */
export function applyScenario(workflow: N8nWorkflow, change: ScenarioChange): string[] {
	const scenario = parseObject(change.scenario, 'Scenario');
	const checked = validateScenario(scenario);
	if (!checked.ok)
		throw new N8nError(
			422,
			`Not saved: the scenario has ${checked.issues.length} problem(s), and n8n runs it as saved. First: ${checked.issues[0].path}: ${checked.issues[0].message}`,
		);
	const node = workflow.nodes.find((n) => n.name === change.nodeName && isScenarioNode(n));
	if (!node)
		throw new N8nError(404, `The workflow has no Scenario node named "${change.nodeName}"`);
	const current = fieldScenario(node);
	if (current.problem) throw new N8nError(409, `Not saved: ${current.problem}`);
	if (!same(current.value, parseObject(change.baseline, 'Baseline')))
		throw new N8nError(
			409,
			`Not saved: the Scenario field of "${node.name}" changed in n8n since the studio opened it. Copy for n8n keeps your version; open the node again to see theirs.`,
		);
	const text = JSON.stringify(scenario, null, 2);
	const written = workflow.nodes.filter(
		(n) => n === node || (isScenarioNode(n) && same(fieldScenario(n).value, current.value)),
	);
	for (const n of written) n.parameters = { ...n.parameters, scenario: text };
	return written.map((n) => n.name);
}

/** The body of n8n's PUT: the workflow as read, less what n8n sets itself. */
export function putBody(workflow: N8nWorkflow) {
	const nodes = workflow.nodes.map((node) => {
		const unknown = Object.keys(node).filter(
			(key) => !WRITABLE_NODE_FIELDS.has(key) && !READ_ONLY_NODE_FIELDS.has(key),
		);
		// Sending it back is refused and leaving it out would lose it: the editor must save this one.
		if (unknown.length > 0)
			throw new N8nError(
				409,
				`Not saved: n8n's API cannot write the field "${unknown[0]}" of the node "${node.name}", and leaving it out would lose it. Save this change in n8n's editor (Copy for n8n).`,
			);
		return Object.fromEntries(
			Object.entries(node).filter(([key]) => WRITABLE_NODE_FIELDS.has(key)),
		);
	});
	const settings = Object.fromEntries(
		Object.entries(workflow.settings ?? {}).filter(([key]) => WRITABLE_SETTINGS.has(key)),
	);
	return { name: workflow.name, nodes, connections: workflow.connections, settings };
}

function parseObject(text: string, label: string): unknown {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		throw new N8nError(400, `${label} is not JSON: ${(error as Error).message}`);
	}
	if (!value || typeof value !== 'object' || Array.isArray(value))
		throw new N8nError(400, `${label} is not a JSON object`);
	return value;
}
