import { randomBytes } from 'node:crypto';

import type { Core } from '../core';
import { errors, ok } from '../http';
import type { Router } from '../router';

/** API keys: issue one, revoke one. */
export function registerKeys(router: Router, core: Core): void {
	router.on('POST', '/_admin/keys', ({ res }) => {
		const key = `mb_test_${randomBytes(16).toString('hex')}`;
		core.apiKeys.add(key);
		ok(res, { api_key: key }, 201);
	});
	router.on('DELETE', '/_admin/keys/:key', ({ res, params }) => {
		if (!core.apiKeys.delete(params[0])) throw errors.notFound('API key');
		ok(res, { revoked: true });
	});
}
