import { NodeConnectionTypes, type IDataObject, type INode } from 'n8n-workflow';

import type { TestWorkflow } from './n8n';

/** A resource locator set "By ID", as the editor stores it. */
export const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** The node that emits fixed items (registered in ./n8n as `test.items`). */
export function itemsNode(items: IDataObject[]): INode {
	return {
		id: 'i',
		name: 'Input',
		type: 'test.items',
		typeVersion: 1,
		position: [0, 0],
		parameters: { items: JSON.stringify(items) },
	};
}

type PackageNode = 'messagingBot' | 'messagingBotScenario' | 'messagingBotTrigger';

/** Each node's name, place and test credential, unless a test says otherwise. */
const NODE_DEFAULTS: Record<PackageNode, Omit<INode, 'type' | 'typeVersion' | 'parameters'>> = {
	messagingBot: {
		id: '2',
		name: 'Messaging Bot',
		position: [200, 0],
		credentials: { messagingBotApi: { id: 'cred-1', name: 'Messaging Bot account' } },
	},
	messagingBotScenario: {
		id: 's',
		name: 'Scenario',
		position: [200, 0],
		credentials: { messagingBotApi: { id: 'a', name: 'API' } },
	},
	messagingBotTrigger: {
		id: 't',
		name: 'Trigger',
		position: [0, 0],
		webhookId: 'hook',
		credentials: { messagingBotWebhookApi: { id: 'w', name: 'W' } },
	},
};

/** One of this package's nodes with the given parameters; `extra` overrides its defaults. */
function packageNode(
	kind: PackageNode,
	parameters: INode['parameters'],
	extra: Partial<INode> = {},
): INode {
	const type = `n8n-nodes-messaging-bot.${kind}`;
	return { ...NODE_DEFAULTS[kind], type, typeVersion: 1, parameters, ...extra };
}

export const messagingBotNode = (parameters: INode['parameters'], extra?: Partial<INode>) =>
	packageNode('messagingBot', parameters, extra);
export const scenarioNode = (parameters: INode['parameters'], extra?: Partial<INode>) =>
	packageNode('messagingBotScenario', parameters, extra);
export const triggerNode = (parameters: INode['parameters'], extra?: Partial<INode>) =>
	packageNode('messagingBotTrigger', parameters, extra);

/** The nodes in a row, each one's main output into the next. */
export function chain(nodes: INode[]): TestWorkflow {
	const connections: TestWorkflow['connections'] = {};
	for (let i = 0; i + 1 < nodes.length; i++) {
		connections[nodes[i].name] = {
			main: [[{ node: nodes[i + 1].name, type: NodeConnectionTypes.Main, index: 0 }]],
		};
	}
	return { nodes, connections };
}

/** A two-node workflow: fixed input items → the given node. */
export function itemsInto(items: IDataObject[], node: INode): TestWorkflow {
	return chain([itemsNode(items), node]);
}

/** A two-node workflow: fixed input items → a Messaging Bot node with the given parameters. */
export function itemsIntoMessagingBot(
	items: IDataObject[],
	parameters: INode['parameters'],
	extra: Partial<INode> = {},
): TestWorkflow {
	return itemsInto(items, messagingBotNode(parameters, extra));
}
