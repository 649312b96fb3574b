import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ScenarioEngine } from '../../../runtime/scenarios';

/**
 * Fires the silence timers that are due ("after N minutes of silence…"). Run it from a Schedule
 * Trigger every minute; several runs at once are safe. One item per timer fired; a timer that
 * hands the client to a person (its target does) goes to "Needs a Human", as a message would.
 */
export async function fireTimers(
	this: IExecuteFunctions,
	engine: ScenarioEngine,
): Promise<INodeExecutionData[][]> {
	const fired = await engine.fireDueTimers();
	const items = fired.map((f) => ({
		json: {
			status: 'timer',
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
		} as IDataObject,
		pairedItem: { item: 0 },
	}));
	// No timer runs while a person has the client, so a handed-off result was handed off just now.
	return [items.filter((i) => !i.json.handed_off), items.filter((i) => i.json.handed_off)];
}
