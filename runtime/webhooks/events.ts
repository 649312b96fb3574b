/** The event types of the spec, and the one sent when a subscription is saved (A31). */
export const EVENT_TYPES = [
	'message.received',
	'message.sent',
	'message.read',
	'client.created',
	'client.updated',
	'client.tagged',
	'order.created',
	'order.updated',
	'order.completed',
	'bot.started',
	'bot.stopped',
	'bot.error',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export const TEST_EVENT = 'webhook.test';
