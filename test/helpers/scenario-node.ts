import type { INode } from 'n8n-workflow';

/** A Messaging Bot Scenario node with the given parameters, on the test API credential. */
export function scenarioNode(parameters: INode['parameters']): INode {
	return {
		id: 's',
		name: 'Scenario',
		type: 'n8n-nodes-messaging-bot.messagingBotScenario',
		typeVersion: 1,
		position: [200, 0],
		parameters,
		credentials: { messagingBotApi: { id: 'a', name: 'API' } },
	};
}
