/* eslint-disable @n8n/community-nodes/no-restricted-imports -- emulator tooling: node:http types, never loaded by n8n */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { HttpError } from './http';

export type RouteContext = {
	req: IncomingMessage;
	res: ServerResponse;
	url: URL;
	params: string[];
	body: unknown;
};
export type Handler = (ctx: RouteContext) => void | Promise<void>;
type Route = { method: string; pattern: RegExp; handler: Handler };

/** A route table: exact regexes over the path; 404 for an unknown path, 405 for a wrong method. */
export class Router {
	private routes: Route[] = [];

	on(method: string, path: string, handler: Handler): this {
		const pattern = new RegExp(`^${path.replace(/:[a-z_]+/g, '([^/]+)')}$`);
		this.routes.push({ method, pattern, handler });
		return this;
	}

	resolve(method: string, path: string): { handler: Handler; params: string[] } {
		const matching = this.routes.filter((r) => r.pattern.test(path));
		if (matching.length === 0) {
			throw new HttpError(404, 'not_found', `No endpoint at ${path}`);
		}
		const route = matching.find((r) => r.method === method);
		if (!route) {
			const allowed = [...new Set(matching.map((r) => r.method))].join(', ');
			throw new HttpError(
				405,
				'method_not_allowed',
				`Method ${method} is not allowed on ${path}; allowed: ${allowed}`,
				undefined,
				{ Allow: allowed },
			);
		}
		const params = (route.pattern.exec(path) as RegExpExecArray).slice(1).map((segment) => {
			const decoded = safeDecode(segment);
			if (decoded === undefined) {
				throw new HttpError(
					400,
					'validation_error',
					`Path segment "${segment}" is not valid URL encoding`,
				);
			}
			return decoded;
		});
		return { handler: route.handler, params };
	}
}

function safeDecode(segment: string): string | undefined {
	try {
		return decodeURIComponent(segment);
	} catch {
		return undefined;
	}
}
