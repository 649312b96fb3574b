import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { authHeaders, type AuthHeader } from '../runtime/api/auth';
import { redisFields } from './redisFields';

export class MessagingBotApi implements ICredentialType {
	name = 'messagingBotApi';

	displayName = 'Messaging Bot API';

	icon = {
		light: 'file:../nodes/MessagingBot/messagingBot.svg',
		dark: 'file:../nodes/MessagingBot/messagingBot.dark.svg',
	} as const;

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-messaging-bot#messaging-bot-api';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com/v1',
			description:
				'The API address from the service dashboard. It ends in /v1 (added if missing) and must use https, except for localhost.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Found in the service dashboard under Settings, then API',
		},
		{
			displayName: 'Send Key In',
			name: 'authHeader',
			type: 'options',
			default: 'bearer',
			options: [
				{
					name: 'Authorization: Bearer (Recommended)',
					value: 'bearer',
					description:
						'Sends the key in the Authorization header as "Bearer" and the key, as the service\'s API reference shows. Try this first.',
				},
				{
					name: 'X-API-Key Header',
					value: 'xApiKey',
					description:
						'Sends the key in a header named X-API-Key. Choose it if the service refuses the key sent the first way.',
				},
				{
					name: 'Both Headers',
					value: 'both',
					description:
						'Sends the key both ways at once, if you are unsure which one your account takes',
				},
			],
		},
		{
			displayName: 'Request Limit',
			name: 'rateLimit',
			type: 'number',
			default: 100,
			typeOptions: { minValue: 1 },
			description:
				'Requests allowed per window for this key (the service allows 100 a minute). Every workflow using this credential shares it. Change only if your plan has a different limit.',
		},
		{
			displayName: 'Request Limit Window (Seconds)',
			name: 'rateWindowSeconds',
			type: 'number',
			default: 60,
			typeOptions: { minValue: 1 },
			description:
				'The length of the window the request limit counts in (the service counts per minute: 60)',
		},
		{
			displayName: 'Request Budget',
			name: 'budgetScope',
			type: 'options',
			default: 'process',
			options: [
				{
					name: 'Counted in This Process (Default)',
					value: 'process',
					description: 'Right when n8n runs as one process (the default setup)',
				},
				{
					name: 'Shared Through Redis (for Queue Mode)',
					value: 'redisCredential',
					description:
						'Every main, webhook and worker process counts one budget, in the Messaging Bot Redis credential chosen on each node (the one its Storage uses): use the Redis queue mode runs on',
				},
				{
					// Credentials saved before the Redis credential carried the budget: their Redis, typed
					// here, still counts it (the value and the fields below keep their names).
					name: 'Shared Through the Redis Below (Older Credentials)',
					value: 'redis',
					description:
						'As above, through a Redis typed in this credential. Choose "Shared Through Redis" instead, so the Redis is typed once.',
				},
			],
			description:
				'Where requests on this key are counted. In queue mode each worker is its own process: share the budget through Redis, or the workers together go over the limit.',
		},
		...redisFields('redis', { budgetScope: ['redis'] }),
	];

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const headers = authHeaders(
			String(credentials.apiKey ?? ''),
			(credentials.authHeader as AuthHeader) ?? 'bearer',
		);
		return { ...requestOptions, headers: { ...requestOptions.headers, ...headers } };
	}

	test: ICredentialTestRequest = {
		request: {
			// The same normalisation as the nodes: trailing slashes off, /v1 added when missing.
			baseURL:
				'={{ $credentials.baseUrl.trim().replace(/\\/+$/, "").replace(/(\\/v1)?$/, "/v1") }}',
			url: '/bots',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'Unauthorized: the service refused this API key. Copy the key again from the dashboard (Settings, then API) and check "Send Key In".',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message: 'Not found: check that the Base URL is the API address and ends in /v1',
				},
			},
		],
	};
}
