import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { LISTENER_LIMITS, type ListenerLimits } from '../../runtime/webhooks';

/** The own port's bounds, each an option with the listener's safe default (docs: the trigger page). */
const FIELDS: Array<{
	name: keyof ListenerLimits;
	displayName: string;
	description: string;
	/** What the user types, in the unit shown, to the listener's unit. */
	scale: number;
}> = [
	{
		name: 'maxBytes',
		displayName: 'Max Body Size (KB)',
		description: 'A delivery larger than this is answered 413 and its connection closed',
		scale: 1024,
	},
	{
		name: 'headersTimeoutMs',
		displayName: 'Headers Timeout (Seconds)',
		description: 'A connection must send its request headers within this, or it is closed',
		scale: 1000,
	},
	{
		name: 'requestTimeoutMs',
		displayName: 'Request Timeout (Seconds)',
		description: 'A connection must send its whole request within this, or it is closed',
		scale: 1000,
	},
	{
		name: 'keepAliveTimeoutMs',
		displayName: 'Keep-Alive Timeout (Seconds)',
		description:
			'A connection kept open after an answer is closed after this long without a request',
		scale: 1000,
	},
	{
		name: 'maxConnections',
		displayName: 'Max Open Connections',
		description:
			'Over this, the connection idle the longest is closed (one in the middle of a request never is)',
		scale: 1,
	},
	{
		name: 'maxConnectionsPerAddress',
		displayName: 'Max Open Connections per Address',
		description: "Over this, that address's connection idle the longest is closed",
		scale: 1,
	},
];

export const listenerLimitsProperty: INodeProperties = {
	displayName: 'Connection Limits',
	name: 'limits',
	type: 'collection',
	placeholder: 'Add Limit',
	default: {},
	description:
		"Bounds that keep the port answering whatever anyone sends to it; the defaults suit the service's deliveries",
	options: FIELDS.map((f) => ({
		displayName: f.displayName,
		name: f.name,
		type: 'number' as const,
		default: LISTENER_LIMITS[f.name] / f.scale,
		typeOptions: { minValue: 1 },
		description: f.description,
	})),
};

/** The limits set in the node, in the listener's units. */
export function listenerLimits(values: IDataObject): Partial<ListenerLimits> {
	const limits: Partial<ListenerLimits> = {};
	for (const f of FIELDS) {
		const value = values[f.name];
		if (typeof value === 'number' && value > 0) limits[f.name] = Math.round(value * f.scale);
	}
	return limits;
}
