import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/**
 * How to reach a Redis, declared once for the credentials that need one: the Redis State Store
 * (names as they are) and the API credential's shared request budget (names prefixed `redis`).
 */
export function redisFields(prefix = '', show?: IDisplayOptions['show']): INodeProperties[] {
	const name = (field: string) =>
		prefix ? `${prefix}${field[0].toUpperCase()}${field.slice(1)}` : field;
	const label = (text: string) => (prefix ? `Redis ${text}` : text);
	const shown = show ? { displayOptions: { show } } : {};
	return [
		{
			displayName: label('Host'),
			name: name('host'),
			type: 'string',
			default: 'localhost',
			description: "The Redis host; with queue mode, the value of n8n's QUEUE_BULL_REDIS_HOST",
			...shown,
		},
		{ displayName: label('Port'), name: name('port'), type: 'number', default: 6379, ...shown },
		{
			displayName: label('User'),
			name: name('user'),
			type: 'string',
			default: '',
			description: 'Leave empty unless the Redis uses ACL users',
			...shown,
		},
		{
			displayName: label('Password'),
			name: name('password'),
			type: 'string',
			typeOptions: { password: true },
			default: '',
			...shown,
		},
		{
			displayName: label('Database Number'),
			name: name('database'),
			type: 'number',
			default: 0,
			...shown,
		},
		{ displayName: label('SSL'), name: name('ssl'), type: 'boolean', default: false, ...shown },
		{
			displayName: label('Ignore SSL Issues (Insecure)'),
			name: name('disableTlsVerification'),
			type: 'boolean',
			default: false,
			displayOptions: { show: { ...show, [name('ssl')]: [true] } },
			description: 'Whether to connect even if the certificate cannot be verified',
		},
	];
}
