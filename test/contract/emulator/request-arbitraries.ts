/** Generated requests for the property tests: wild ones, and near-valid ones on real routes. */
import fc from 'fast-check';

import type { Auth } from './raw-http';
import { TEMPLATES, EXCLUDED, isHarmless, type Template, type Body } from './emulator-routes';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const;
const IDS = [
	'bot_shop',
	'bot_support',
	'bot_legacy',
	'cl_ada',
	'cl_grace',
	'welcome',
	'support',
	'order_status',
];

const encode = (s: string) => {
	try {
		return encodeURIComponent(s);
	} catch {
		return '%';
	}
};

const idArb = fc.oneof(
	{ weight: 5, arbitrary: fc.constantFrom(...IDS) },
	{ weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }).map(encode) },
	{ weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
	{
		weight: 1,
		arbitrary: fc.constantFrom(
			'%',
			'%zz',
			'%E0%A4%A',
			'%ff',
			'%C3%28',
			'..',
			'.',
			'%2e%2e',
			'%2F',
			'',
			'%00',
		),
	},
);

/** Fills the template's `:x` segments in order. */
const fill = (path: string, ids: string[]) => ids.reduce((p, id) => p.replace(/:[a-z]+/, id), path);

const pathArb = fc.oneof(
	{
		weight: 8,
		arbitrary: fc
			.tuple(fc.constantFrom(...TEMPLATES), fc.array(idArb, { minLength: 2, maxLength: 2 }))
			.map(([t, ids]) => ({ template: t, path: fill(t.path, ids) })),
	},
	{
		weight: 2,
		arbitrary: fc
			.tuple(
				fc.constantFrom('/', '/v1/', '/_admin/', '/v1/bots/', '/v1/clients/'),
				fc.string({ unit: 'grapheme', maxLength: 24 }),
			)
			.map(([prefix, rest]) => ({ template: undefined, path: prefix + rest })),
	},
);

const queryKey = fc.oneof(
	fc.constantFrom(
		'limit',
		'offset',
		'email',
		'phone',
		'tags',
		'created_after',
		'custom_fields',
		'from',
		'to',
		'bot_id',
		'client_id',
		'event',
		'state',
	),
	fc.string({ maxLength: 8 }),
);
const queryValue = fc.oneof(
	fc.string({ maxLength: 16 }),
	fc.integer({ min: -5, max: 2_000 }).map(String),
	fc.constantFrom(
		'2026-01-01',
		'2026-02-30',
		'1.5',
		'abc',
		'',
		'+442071234567',
		'ada@example.com',
		'customer,vip',
	),
	fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
);
const knownQueryArb = fc
	.array(
		fc.tuple(
			fc.constantFrom(
				'limit',
				'offset',
				'email',
				'tags',
				'created_after',
				'from',
				'to',
				'custom_fields',
			),
			queryValue,
		),
		{
			minLength: 1,
			maxLength: 2,
		},
	)
	.map((pairs) => `?${new URLSearchParams(pairs).toString()}`);
const queryArb = fc.oneof(
	{ weight: 3, arbitrary: fc.constant('') },
	{
		weight: 4,
		arbitrary: fc
			.array(fc.tuple(queryKey, queryValue), { maxLength: 4 })
			.map((pairs) => (pairs.length ? `?${new URLSearchParams(pairs).toString()}` : '')),
	},
	{ weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }).map((s) => `?${s}`) },
);

/** Values a field may be set to: other types, empty and odd strings, nested JSON. */
const fieldValue = fc.oneof(
	fc.string({ maxLength: 20 }),
	fc.constantFrom('', ' ', 'not a url', '%', '0', '-1', 'null', '2026-02-30', 'x'.repeat(5_000)),
	fc.integer(),
	fc.double(),
	fc.boolean(),
	fc.constant(null),
	fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { maxLength: 3 }),
	fc.jsonValue({ maxDepth: 3 }),
);

/** A valid body, or one with a field changed, dropped or added, or its JSON cut short. */
function mutated(valid: Record<string, unknown>): fc.Arbitrary<string> {
	const keys = Object.keys(valid);
	const text = JSON.stringify(valid);
	const options: Array<fc.WeightedArbitrary<string>> = [
		{ weight: 2, arbitrary: fc.constant(text) },
		{
			weight: 1,
			arbitrary: fc
				.tuple(fc.string({ minLength: 1, maxLength: 10 }), fieldValue)
				.map(([k, v]) => JSON.stringify({ ...valid, [k]: v })),
		},
		{ weight: 1, arbitrary: fc.nat().map((n) => text.slice(0, n % text.length)) },
	];
	if (keys.length > 0) {
		options.push(
			{
				weight: 1,
				arbitrary: fc
					.constantFrom(...keys)
					.map((k) => JSON.stringify({ ...valid, [k]: undefined })),
			},
			{
				weight: 6,
				arbitrary: fc
					.tuple(fc.constantFrom(...keys), fieldValue)
					.map(([k, v]) => JSON.stringify({ ...valid, [k]: v })),
			},
		);
	}
	return fc.oneof(...options);
}

const bodyArb = (valid: Record<string, unknown> | undefined): fc.Arbitrary<Body> =>
	fc.oneof(
		{ weight: 2, arbitrary: fc.constant(undefined) },
		{ weight: 2, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
		{ weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
		{ weight: 1, arbitrary: fc.uint8Array({ maxLength: 256 }) },
		{ weight: 4, arbitrary: mutated(valid ?? { email: 'prop@example.com' }) },
		{ weight: 1, arbitrary: fc.constant('x'.repeat(70_000)) },
	);

/** Wild requests: any method, path, query, body, content type and authentication. */
const wildArb = pathArb.chain(({ template, path }) =>
	fc.record({
		method: template
			? fc.oneof(
					{ weight: 3, arbitrary: fc.constant(template.method) },
					fc.constantFrom(...METHODS),
				)
			: fc.constantFrom(...METHODS),
		path: fc.constant(path),
		query: queryArb,
		body: bodyArb(template?.valid),
		contentType: fc.constantFrom<string | null>(
			'application/json',
			'application/json',
			'application/json',
			'application/json',
			'application/json; charset=utf-8',
			'APPLICATION/JSON',
			'application/json; charset=latin1',
			'text/plain',
			'application/x-www-form-urlencoded',
			'multipart/form-data; boundary=x',
			'',
			null,
		),
		auth: fc.constantFrom<Auth>(
			'bearer',
			'bearer',
			'bearer',
			'bearer',
			'x-api-key',
			'none',
			'wrong',
			'mismatch',
		),
	}),
);

const ID_POOLS: Record<string, string[]> = {
	bot: ['bot_shop', 'bot_support', 'bot_legacy'],
	client: ['cl_ada', 'cl_grace', 'cl_linus'],
	scenario: ['welcome', 'support', 'order_status'],
	any: ['x', 'dlv_x', 'wh_x'],
};

/** Near-valid requests: a real route with real ids and credentials, and a (mutated) valid body. */
const nearValidTo = (templates: Template[]) =>
	fc.constantFrom(...templates).chain((t) =>
		fc.record({
			method: fc.constant(t.method),
			path: fc
				.tuple(
					...(t.path.match(/:[a-z]+/g) ?? []).map((name) =>
						fc.constantFrom(...ID_POOLS[name.slice(1)]),
					),
				)
				.map((ids) => fill(t.path, ids)),
			query: fc.oneof({ weight: 2, arbitrary: fc.constant('') }, knownQueryArb),
			body: t.valid ? mutated(t.valid) : fc.constant<Body>(undefined),
			contentType: fc.constant<string | null>('application/json'),
			auth: fc.constant<Auth>('bearer'),
		}),
	);

export const requestArb = fc
	.oneof(wildArb, nearValidTo(TEMPLATES))
	.filter((r) => isHarmless(r.method, r.path + r.query, r.body));
export type GeneratedRequest = typeof requestArb extends fc.Arbitrary<infer R> ? R : never;

/** Only the routes that take a body, with a valid body mutated field by field. */
export const bodyRequestArb = nearValidTo(
	TEMPLATES.filter(
		(t) => t.valid && Object.keys(t.valid).length > 0 && !EXCLUDED.has(`${t.method} ${t.path}`),
	),
).filter((r) => isHarmless(r.method, r.path + r.query, r.body));
