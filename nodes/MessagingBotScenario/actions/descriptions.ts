import type { INodeProperties } from 'n8n-workflow';

/** Scenario names mapped to n8n workflows, picked as the Execute Workflow node picks one. */
export const workflowsProperty: INodeProperties = {
	displayName: 'Workflows',
	name: 'workflows',
	type: 'fixedCollection',
	placeholder: 'Add Workflow',
	typeOptions: { multipleValues: true },
	default: {},
	// Get Diagram and Get Analytics run nothing; the other operations may reach a "call" step.
	displayOptions: { hide: { operation: ['getDiagram', 'getAnalytics'] } },
	description:
		'The workflows the scenario\'s "call" steps run, by the name the scenario gives them. Each gets one item with the inputs and answers with its first output item.',
	options: [
		{
			displayName: 'Workflow',
			name: 'workflow',
			values: [
				{
					displayName: 'Name in the Scenario',
					name: 'name',
					type: 'string',
					default: '',
					placeholder: 'lookup-order',
					description: 'The name a "call" step uses (declared under "workflows" in the scenario)',
				},
				{
					displayName: 'Workflow',
					name: 'workflow',
					type: 'workflowSelector',
					default: '',
					description: 'From the list, or by ID; it needs an Execute Workflow Trigger',
				},
			],
		},
	],
};

/** The Test Conversation operation's fields. */
export const testProperties: INodeProperties[] = [
	{
		displayName: 'Client Messages',
		name: 'testMessages',
		type: 'string',
		typeOptions: { rows: 6 },
		default: 'hi\norder',
		required: true,
		displayOptions: { show: { operation: ['testConversation'] } },
		description: 'What the client writes, one message per line; nothing is sent to anyone',
	},
	{
		displayName: 'Test Client',
		name: 'testClient',
		type: 'json',
		default: '{\n  "id": "cl_test",\n  "first_name": "Ada",\n  "tags": [],\n  "orders": []\n}',
		displayOptions: { show: { operation: ['testConversation'] } },
		description: "The client's record the scenario sees: name, tags, custom fields, orders",
	},
	{
		displayName: 'Run Workflows',
		name: 'runWorkflows',
		type: 'boolean',
		default: false,
		displayOptions: { show: { operation: ['testConversation'] } },
		description:
			'Whether "call" steps run their workflows for real; off, each call is listed with its inputs and answered with nothing',
	},
];
