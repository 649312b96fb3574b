import { registerBotApi } from './bot-api';
import { registerClientApi } from './client-api';
import type { Core } from './core';
import type { Router } from './router';

/** The service's Bot and Client API under /v1, as docs/service-assumptions.md describes it. */
export function registerApi(router: Router, core: Core): void {
	registerBotApi(router, core);
	registerClientApi(router, core);
}
