import type {
	FunctionsBase,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
	INodeProperties,
} from 'n8n-workflow';

import { EVENT_TYPES } from '../../runtime/webhooks';
import { statePathOption } from './stateStore';

/** What both triggers share: the events picked, the options of an item, the signing secret. */

const eventOptions = EVENT_TYPES.map((value) => ({
	name: value.replace(/\./g, ' ').replace(/\b\w/g, (c) => c.toUpperCase()),
	value,
}));

export const eventsProperty: INodeProperties = {
	displayName: 'Events',
	name: 'events',
	type: 'multiOptions',
	required: true,
	default: ['*'],
	description: 'The events that start the workflow; others are acknowledged and ignored',
	options: [{ name: 'All Events', value: '*' }, ...eventOptions],
};

export const deliveryOptionsProperty: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Include Headers',
			name: 'includeHeaders',
			type: 'boolean',
			default: false,
			description: 'Whether to add the request headers to the output item',
		},
		{
			displayName: 'Include Raw Body',
			name: 'includeRawBody',
			type: 'boolean',
			default: false,
			description: 'Whether to add the exact request body (the signed bytes) as text',
		},
		{
			displayName: 'Pass Test Events',
			name: 'passTestEvents',
			type: 'boolean',
			default: false,
			description:
				'Whether the test event the service sends when a subscription is saved starts the workflow (it always does while listening in the editor)',
		},
		statePathOption('delivery IDs already seen'),
	],
};

export const triggerSubtitle =
	'={{ $parameter["events"].includes("*") ? "All events" : $parameter["events"].join(", ") }}';

/** The signing secret's credential test. */
export async function messagingBotWebhookSecret(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const { secret, previousSecret } = (credential.data ?? {}) as {
		secret?: string;
		previousSecret?: string;
	};
	if (!secret)
		return {
			status: 'Error',
			message: 'Set the signing secret from the subscription in the dashboard',
		};
	if (secret.trim() !== secret)
		return {
			status: 'Error',
			message: 'The secret has spaces at its start or end: copy it again',
		};
	if (previousSecret && previousSecret === secret) {
		return { status: 'Error', message: 'The previous secret is the same as the current one' };
	}
	return { status: 'OK', message: 'Secret set: deliveries will be verified' };
}

type Context = Pick<FunctionsBase, 'getNode' | 'getCredentials' | 'getChildNodes'>;

/** A Scenario node handling messages follows this trigger: messages go to its inboxes. */
export function feedsScenario(ctx: Context): boolean {
	return ctx
		.getChildNodes(ctx.getNode().name, { includeNodeParameters: true })
		.some(
			(node) =>
				node.type.endsWith('.messagingBotScenario') &&
				!node.disabled &&
				(node.parameters?.operation ?? 'handleMessage') === 'handleMessage',
		);
}

export async function signingSecrets(ctx: Context): Promise<string[]> {
	const node = ctx.getNode();
	if (!node.credentials?.messagingBotWebhookApi) return [];
	const { secret, previousSecret } = await ctx.getCredentials<{
		secret?: string;
		previousSecret?: string;
	}>('messagingBotWebhookApi');
	return [secret, previousSecret].filter((s): s is string => typeof s === 'string' && s.length > 0);
}

/** The exact bytes that were signed: n8n keeps them as `rawBody`. */
export function rawBytes(rawBody: unknown, parsed: unknown): Uint8Array {
	if (rawBody instanceof Uint8Array) return rawBody;
	if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
	// Without the raw bytes the signature cannot match; re-serialising is the best remaining guess.
	return Buffer.from(JSON.stringify(parsed ?? {}), 'utf8');
}
