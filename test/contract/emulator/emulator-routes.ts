/** Every route of the emulator, and which requests a property run may not make. */
export type Template = { method: string; path: string; valid?: Record<string, unknown> };

/** Every route of both routers; `:x` segments are filled with ids. */
export const TEMPLATES: Template[] = [
	{ method: 'GET', path: '/v1/bots' },
	{
		method: 'POST',
		path: '/v1/bots/:bot/messages',
		valid: { client_id: 'cl_ada', text: 'hi', type: 'text' },
	},
	{ method: 'GET', path: '/v1/bots/:bot/stats' },
	{ method: 'PUT', path: '/v1/bots/:bot/scenarios/:scenario/activate', valid: {} },
	{ method: 'GET', path: '/v1/clients' },
	{
		method: 'POST',
		path: '/v1/clients',
		valid: {
			email: 'prop@example.com',
			phone: '+4915100000000',
			first_name: 'P',
			last_name: 'Q',
			custom_fields: { a: { b: 1 } },
			tags: ['x'],
		},
	},
	{ method: 'GET', path: '/v1/clients/:client' },
	{ method: 'PUT', path: '/v1/clients/:client/tags', valid: { add: ['a'], remove: ['b'] } },
	{ method: 'GET', path: '/v1/clients/:client/messages' },
	{ method: 'GET', path: '/_admin/state' },
	{ method: 'POST', path: '/_admin/reset' },
	{ method: 'GET', path: '/_admin/config' },
	{ method: 'POST', path: '/_admin/config', valid: { rate_limit: 100_000 } },
	{ method: 'POST', path: '/_admin/keys' },
	{ method: 'DELETE', path: '/_admin/keys/:any' },
	{
		method: 'POST',
		path: '/_admin/bots',
		valid: { name: 'Prop bot', channels: ['telegram'], scenarios: ['s1'], status: 'active' },
	},
	{
		method: 'PATCH',
		path: '/_admin/bots/:bot',
		valid: { name: 'Renamed', status: 'active', channels: ['telegram', 'whatsapp'] },
	},
	{
		method: 'POST',
		path: '/_admin/clients',
		valid: { count: 3, tags: ['bulk'], email_domain: 'prop.test' },
	},
	{ method: 'GET', path: '/_admin/clients/:client' },
	{ method: 'GET', path: '/_admin/subscriptions' },
	{
		method: 'POST',
		path: '/_admin/subscriptions',
		valid: { url: 'http://127.0.0.1:1/hook', secret: 's', events: ['*'], active: true },
	},
	{ method: 'PATCH', path: '/_admin/subscriptions/:any', valid: { active: false } },
	{ method: 'DELETE', path: '/_admin/subscriptions/:any' },
	{ method: 'POST', path: '/_admin/subscriptions/:any/test' },
	{
		method: 'POST',
		path: '/_admin/inbound',
		valid: { bot_id: 'bot_shop', client_id: 'cl_ada', text: 'hello' },
	},
	{
		method: 'POST',
		path: '/_admin/events',
		valid: { event: 'client.updated', data: { client_id: 'cl_ada' } },
	},
	{ method: 'GET', path: '/_admin/deliveries' },
	{ method: 'GET', path: '/_admin/deliveries/:any' },
	{ method: 'POST', path: '/_admin/settle' },
	{ method: 'GET', path: '/_admin/dead-letter' },
	{ method: 'POST', path: '/_admin/dead-letter/:any/redeliver' },
	{ method: 'GET', path: '/_admin/sent-messages' },
	{ method: 'GET', path: '/_admin/requests' },
	{ method: 'GET', path: '/_admin/faults' },
	{ method: 'POST', path: '/_admin/faults', valid: { path: '/v1/bots', count: 1 } },
	{ method: 'DELETE', path: '/_admin/faults' },
	{ method: 'GET', path: '/_admin/clock' },
	{ method: 'POST', path: '/_admin/clock/advance', valid: { ms: 1 } },
];

/**
 * Requests that act on time or on the following runs (reset, faults, clock, config) are left
 * out: the other methods on those paths are still generated.
 */
export const EXCLUDED = new Set([
	'POST /_admin/reset',
	'POST /_admin/faults',
	'POST /_admin/clock/advance',
	'POST /_admin/config',
]);

export type Body = string | Uint8Array | undefined;

/** Keeps the run from resetting the emulator, injecting faults, moving its clock or calling out. */
export function isHarmless(method: string, target: string, body: Body): boolean {
	let pathname: string;
	try {
		// As the client sends it, then as the server reads it.
		const sent = new URL(`http://emulator.local${target}`);
		pathname = new URL(`http://emulator.local${sent.pathname}`).pathname;
	} catch {
		return true;
	}
	if (EXCLUDED.has(`${method} ${pathname}`)) return false;
	if (typeof body !== 'string') return true;
	let parsed: unknown;
	try {
		parsed = JSON.parse(body);
	} catch {
		return true;
	}
	if (parsed === null || typeof parsed !== 'object') return true;
	const fields = parsed as Record<string, unknown>;
	// A large count would make the admin API create that many clients.
	if (pathname === '/_admin/clients' && typeof fields.count === 'number' && fields.count > 50)
		return false;
	// Webhook URLs that would be called: only a local port that refuses at once. Invalid ones are fine.
	if (pathname.startsWith('/_admin/subscriptions') && typeof fields.url === 'string') {
		const url = URL.parse(fields.url);
		if (!url || fields.url.startsWith('http://127.0.0.1:1/')) return true;
		if (url.protocol === 'https:') return false;
		return !(
			url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
		);
	}
	return true;
}
