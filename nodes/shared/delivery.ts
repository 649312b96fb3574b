import {
	NodeOperationError,
	type FunctionsBase,
	type INode,
	type INodeProperties,
} from 'n8n-workflow';

import { EVENT_TYPES, KeptSecrets } from '../../runtime/webhooks';
import { refuseLossyRedisOption, statePathOption } from './stateStore';

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
				'Whether the test event the service sends when a subscription is saved starts the workflow, and ends listening in the editor. Off, it is acknowledged and listening goes on until a real event.',
		},
		statePathOption('delivery IDs already seen'),
		refuseLossyRedisOption(),
	],
};

/** "All events", or the events picked by the names the list shows ("Message Received"). */
export const triggerSubtitle = `={{ $parameter["events"].includes("*") ? "All events" : $parameter["events"].map((e) => (${JSON.stringify(
	Object.fromEntries(eventOptions.map((o) => [o.value, o.name])),
)})[e] ?? e).join(", ") }}`;

type Secrets = { secret?: string; previousSecret?: string };

/**
 * What is wrong with the form of the webhook credential's secrets, naming the field; null when
 * nothing. Nothing can be connected to test a secret (the service has no endpoint for it): the
 * credential's test (secretsTest.ts) and the triggers, when they start listening, check this.
 */
export function secretsProblem({ secret, previousSecret }: Secrets): string | null {
	const spaced = (s?: string) => s !== undefined && s !== '' && s.trim() !== s;
	if (!secret) return 'Signing Secret is empty: copy it from the subscription in the dashboard';
	if (spaced(secret)) return 'Signing Secret has spaces at its start or end: copy it again';
	if (spaced(previousSecret))
		return 'Previous Signing Secret has spaces at its start or end: copy it again';
	if (previousSecret === secret)
		return 'Previous Signing Secret is the same as Signing Secret: clear it, or put the old secret there';
	return null;
}

/** Stops a trigger from listening with a webhook credential whose secrets are malformed. */
export async function checkSigningSecrets(ctx: Context): Promise<void> {
	if (!ctx.getNode().credentials?.messagingBotWebhookApi) return;
	const problem = secretsProblem(await ctx.getCredentials<Secrets>('messagingBotWebhookApi'));
	if (problem)
		throw new NodeOperationError(ctx.getNode(), problem, {
			description: 'Open the Messaging Bot Webhook API credential of this trigger and correct it.',
		});
}

type Context = Pick<FunctionsBase, 'getNode' | 'getCredentials' | 'getChildNodes'>;

export async function signingSecrets(ctx: Context): Promise<string[]> {
	const node = ctx.getNode();
	if (!node.credentials?.messagingBotWebhookApi) return [];
	const { secret, previousSecret } = await ctx.getCredentials<{
		secret?: string;
		previousSecret?: string;
	}>('messagingBotWebhookApi');
	return [secret, previousSecret].filter((s): s is string => typeof s === 'string' && s.length > 0);
}

const keptSecrets = new KeptSecrets();

/**
 * The signing secrets for a delivery through n8n's webhook URL, kept a minute per credential
 * (runtime/webhooks/kept-secrets.ts).
 */
export async function webhookSigningSecrets(ctx: Context): Promise<string[]> {
	const key = credentialKey(ctx);
	if (key === undefined) return [];
	return await keptSecrets.get(key, async () => await signingSecrets(ctx));
}

/**
 * Fresh secrets for a delivery the kept ones refused (the secret may have changed), read at most
 * once every few seconds per credential whatever the rate of refused requests; null: nothing new.
 */
export async function refreshedSigningSecrets(ctx: Context): Promise<string[] | null> {
	const key = credentialKey(ctx);
	if (key === undefined) return null;
	return await keptSecrets.refresh(key, async () => await signingSecrets(ctx));
}

function credentialKey(ctx: Context): string | undefined {
	const ref = ctx.getNode().credentials?.messagingBotWebhookApi;
	return ref ? (ref.id ?? ref.name) : undefined;
}

/** The exact bytes that were signed: n8n keeps them as `rawBody`. */
export function rawBytes(rawBody: unknown, parsed: unknown): Uint8Array {
	if (rawBody instanceof Uint8Array) return rawBody;
	if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
	// Without the raw bytes the signature cannot match; re-serialising is the best remaining guess
	// (and a body too deep to serialise is read as none).
	try {
		return Buffer.from(JSON.stringify(parsed ?? {}), 'utf8');
	} catch {
		return new Uint8Array();
	}
}

/**
 * A delivery refused while listening in the editor, as an error the editor shows on the trigger:
 * otherwise the service alone would see the refusal, and the user would wait for nothing.
 */
export function refusedWhileListening(
	node: INode,
	status: number,
	reason: string,
): NodeOperationError {
	const detail = reason.replace(/^Rejected: /, '');
	if (status === 401)
		return new NodeOperationError(node, `A delivery was refused: ${detail}`, {
			description:
				"The service signs each delivery with the secret key of its subscription, and this trigger checks it with Signing Secret. Copy the subscription's secret from the service dashboard into this trigger's Messaging Bot Webhook API credential, then listen again. Nothing was started.",
		});
	return new NodeOperationError(node, `A delivery was refused: ${detail}`, {
		description: 'The request does not look like a delivery of the service. Nothing was started.',
	});
}
