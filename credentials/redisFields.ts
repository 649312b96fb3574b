import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import type { RedisCredential } from '../runtime/stores/redis-options';

type Field = keyof RedisCredential;

/** A Redis field's name under a prefix: `host`, or `redisHost` under `redis`. */
type Named<P extends string, K extends Field> = P extends '' ? K : `${P}${Capitalize<K>}`;

/** A credential's Redis fields under a prefix, as n8n hands them to a node. */
export type RedisFieldsUnder<P extends string> = {
	[K in Field as Named<P, K>]?: RedisCredential[K];
};

/**
 * Every field of a Redis connection, keyed by its name in `RedisCredential`: the form below and
 * the reader (`redisCredentialUnder`) are both built from it, so a field renamed there fails to
 * compile here instead of reading `undefined`.
 */
const FIELDS: { [K in Field]: Omit<INodeProperties, 'name' | 'displayName'> & { label: string } } =
	{
		host: {
			label: 'Host',
			type: 'string',
			default: 'localhost',
			description: "The Redis host; with queue mode, the value of n8n's QUEUE_BULL_REDIS_HOST",
		},
		port: { label: 'Port', type: 'number', default: 6379 },
		user: {
			label: 'User',
			type: 'string',
			default: '',
			description: 'Leave empty unless the Redis uses ACL users',
		},
		password: { label: 'Password', type: 'string', typeOptions: { password: true }, default: '' },
		database: { label: 'Database Number', type: 'number', default: 0 },
		ssl: { label: 'SSL', type: 'boolean', default: false },
		disableTlsVerification: {
			label: 'Ignore SSL Issues (Insecure)',
			type: 'boolean',
			default: false,
			description: 'Whether to connect even if the certificate cannot be verified',
		},
	};

function named<P extends string, K extends Field>(prefix: P, field: K): Named<P, K> {
	return (prefix ? `${prefix}${field[0].toUpperCase()}${field.slice(1)}` : field) as Named<P, K>;
}

/**
 * How to reach a Redis, declared once for the credentials that hold one: the Messaging Bot Redis
 * credential (names as they are) and, for credentials saved before it carried the request budget,
 * the API credential's own Redis (names prefixed `redis`).
 */
export function redisFields(prefix = '', show?: IDisplayOptions['show']): INodeProperties[] {
	const label = (text: string) => (prefix ? `Redis ${text}` : text);
	return (Object.keys(FIELDS) as Field[]).map((field) => {
		const { label: text, ...rest } = FIELDS[field];
		// The certificate check matters only over SSL.
		const when =
			field === 'disableTlsVerification' ? { ...show, [named(prefix, 'ssl')]: [true] } : show;
		return {
			displayName: label(text),
			name: named(prefix, field),
			...rest,
			...(when ? { displayOptions: { show: when } } : {}),
		};
	});
}

/** The Redis connection in a credential's fields under `prefix`. */
export function redisCredentialUnder<P extends string>(
	prefix: P,
	fields: RedisFieldsUnder<P>,
): RedisCredential {
	const read = fields as Record<string, unknown>;
	return Object.fromEntries(
		(Object.keys(FIELDS) as Field[]).map((field) => [field, read[named(prefix, field)]]),
	) as RedisCredential;
}
