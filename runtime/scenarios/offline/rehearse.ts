import { MemoryStore } from '../../stores/memory';
import type { WorkflowPort } from '../durability/workflow-call';
import type { CompiledScenario } from '../machine/compile';
import type { ActionReport } from '../durability/record';
import { ScenarioEngine } from '../engine/engine';
import { RecordingApi } from './recording-api';
import type { ClientProfile } from '../format/templates';

/**
 * Plays client messages through scenarios without sending anything: replies and tag changes are
 * recorded, the conversation lives in memory, and workflow calls go to the port given (or are
 * answered with nothing, so the "empty" branch is taken). What a designer tries in the editor.
 */
export interface Rehearsal {
	transcript: Array<{ from: 'client' | 'bot'; text: string }>;
	/** The state after each message, in order. */
	states: string[];
	vars: Record<string, string>;
	tags: string[];
	calls: Array<{
		workflow: string;
		inputs: Record<string, string>;
		outcome: string;
		error?: string;
	}>;
	handedOff: boolean;
	ended: boolean;
}

const NO_WORKFLOWS: WorkflowPort = { call: async () => undefined };

export async function rehearse(
	scenarios: readonly CompiledScenario[],
	messages: readonly string[],
	options: { client?: ClientProfile; workflows?: WorkflowPort; now?: () => number } = {},
): Promise<Rehearsal> {
	const client = options.client ?? { id: 'cl_test', tags: [] };
	const now = options.now ?? (() => Date.now());
	const engine = new ScenarioEngine({
		scenarios,
		store: new MemoryStore(now),
		api: new RecordingApi([client]),
		clock: { now },
		workflows: options.workflows ?? NO_WORKFLOWS,
		scope: 'rehearsal',
	});
	const out: Rehearsal = {
		transcript: [],
		states: [],
		vars: {},
		tags: [...client.tags],
		calls: [],
		handedOff: false,
		ended: false,
	};
	for (const [i, text] of messages.entries()) {
		out.transcript.push({ from: 'client', text });
		const result = await engine.handle({
			message_id: `test_${i + 1}`,
			client_id: client.id,
			bot_id: 'bot_test',
			text,
		});
		record(out, result.actions);
		const c = result.conversation;
		if (c)
			Object.assign(out, { vars: c.vars, tags: c.tags, handedOff: c.handedOff, ended: c.ended });
		out.states.push(c?.state ?? '');
	}
	return out;
}

function record(out: Rehearsal, actions: readonly ActionReport[]) {
	for (const a of actions) {
		if (a.kind === 'reply') out.transcript.push({ from: 'bot', text: a.text ?? '' });
		if (a.kind === 'workflow')
			out.calls.push({
				workflow: a.workflow ?? '',
				inputs: a.inputs ?? {},
				outcome: a.result?.outcome ?? a.status,
				...(a.result?.error ? { error: a.result.error } : {}),
			});
	}
}
