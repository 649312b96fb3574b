import { z } from 'zod/v4';

import type { Core } from '../core';
import { ok, validate } from '../http';
import { PROFILES } from '../profiles';
import type { Router } from '../router';

const profileBody = z.strictObject({ profile: z.enum(PROFILES) });

/** `GET /_admin/profile`, `PUT /_admin/profile {"profile": "variant"}`; a reset keeps it. */
export function registerProfile(router: Router, core: Core): void {
	router.on('GET', '/_admin/profile', ({ res }) => ok(res, { profile: core.profile }));
	router.on('PUT', '/_admin/profile', ({ res, body }) => {
		core.profile = validate(profileBody, body, 'body').profile;
		ok(res, { profile: core.profile });
	});
}
