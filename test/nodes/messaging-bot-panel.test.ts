import { NodeHelpers, type INode } from 'n8n-workflow';

import { MessagingBot } from '../../nodes/MessagingBot/MessagingBot.node';

/** The issues n8n's editor shows on a node's parameters (the red marks and their text). */
function issues(parameters: INode['parameters']) {
	const description = new MessagingBot().description;
	const node: INode = {
		id: 'b',
		name: 'Messaging Bot',
		type: 'n8n-nodes-messaging-bot.messagingBot',
		typeVersion: 1,
		position: [0, 0],
		parameters: NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			null,
			description,
		) as INode['parameters'],
	};
	return NodeHelpers.getNodeParametersIssues(description.properties, node, description)?.parameters;
}

describe('Messaging Bot panel: what an empty or wrong ID field says', () => {
	const sendTo = (botId: string) => ({
		resource: 'bot',
		operation: 'sendMessage',
		botId: { __rl: true, mode: 'id', value: botId },
		clientId: { __rl: true, mode: 'id', value: 'cl_ada' },
		text: 'hi',
	});

	it('an empty Bot field only says it is required', () => {
		expect(issues(sendTo(''))?.botId).toEqual(['Parameter "Bot" is required.']);
	});

	it('a Bot ID with a space says it has none', () => {
		expect(issues(sendTo('bot shop'))?.botId).toEqual(['A bot ID has no spaces']);
		expect(issues(sendTo('bot_shop'))?.botId).toBeUndefined();
	});
});
