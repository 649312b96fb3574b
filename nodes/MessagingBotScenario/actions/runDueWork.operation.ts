import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { DueWork, ScenarioEngine, TimerResult } from '../../../runtime/scenarios';
import { needsHuman, resultItem } from './results';
import type { ScenarioOperation } from './types';

/**
 * The scheduled run ("Run Due Work"): applies the messages whose execution stopped before applying
 * them, after a restart applies what the client's history shows of conversations active shortly
 * before that n8n never passed on, finishes replies and tag changes a stopped worker left, and fires
 * the silence timers that are due. Run it from a Schedule Trigger; several runs at once are safe.
 * One item per message applied, timer fired, conversation resumed or healed from the history;
 * a client handed to a person goes to "Needs a Human".
 * It works on the conversations of its scenario (and Conversation Scope) in its storage, whichever
 * workflow handled them; the last item on "Handled" says how many it looked at.
 */
export const runDueWork: ScenarioOperation = {
	description: [],
	async execute(engine) {
		const work = await engine.runDueWork();
		const { messages, timers, failures } = work;
		const handled: INodeExecutionData[] = [];
		const human: INodeExecutionData[] = [];
		const pairedItem = { item: 0 };
		for (const result of messages) {
			(needsHuman(result) ? human : handled).push({
				json: { ...resultItem(result), resumed: true },
				pairedItem,
			});
		}
		for (const fired of timers) {
			const json = timerItem(fired);
			// No timer runs while a person has the client, so a handed-off result was handed off just now.
			(json.handed_off ? human : handled).push({ json, pairedItem });
		}
		for (const failure of failures) {
			handled.push({ json: { status: 'error', ...failure }, pairedItem });
		}
		// What each healing from a client's history did, or could not. The status keeps its first
		// name, 'reconciled': saved workflows branch on it.
		for (const report of work.healing) {
			handled.push({ json: { status: 'reconciled', ...report }, pairedItem });
		}
		handled.push({ json: summaryItem(this, engine, work), pairedItem });
		return [handled, human];
	},
};

/** What the run looked at: a ticker that reaches no conversation says so, and for which scenario. */
function summaryItem(ctx: IExecuteFunctions, engine: ScenarioEngine, work: DueWork): IDataObject {
	const scope = String(ctx.getNodeParameter('options.conversationScope', 0, '')).trim();
	const count = (kind: TimerResult['kind']) => work.timers.filter((t) => t.kind === kind).length;
	return {
		status: 'checked',
		scenario: [...engine.scenarios.keys()][0],
		conversation_scope: scope === '' ? null : scope,
		conversations: work.conversations,
		// When it looked for what was due: a ticker that finds nothing due can be checked by it.
		due_by: new Date(work.dueBy).toISOString(),
		messages_applied: work.messages.length,
		timers_fired: count('timer'),
		resumed: count('resumed'),
		failures: work.failures.length,
		carried_over: work.carriedOver,
		// Named 'reconciled' since the first version: saved workflows read it.
		reconciled: work.healing.length,
		healed: work.healing.reduce((n, r) => n + r.healed.length, 0),
		...(work.notice ? { notice: work.notice } : {}),
	};
}

function timerItem(f: TimerResult): IDataObject {
	return {
		status: f.kind,
		bot_id: f.conversation.botId,
		client_id: f.conversation.clientId,
		scenario: f.conversation.scenario,
		state: f.conversation.state,
		vars: f.conversation.vars,
		handed_off: f.conversation.handedOff,
		ended: f.conversation.ended,
		sent: f.actions
			.filter((a) => a.kind === 'reply' && a.status === 'done')
			.map((a) => a.text ?? ''),
		actions: f.actions as unknown as IDataObject[],
		problems: f.problems as unknown as IDataObject[],
	};
}
