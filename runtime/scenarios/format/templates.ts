import { didYouMean } from './suggest';

/**
 * Message templates: `{{client.first_name}}`, `{{vars.email}}`, `{{message.text}}`,
 * `{{order.status}}` (the order a "findOrder" action found), with an
 * optional fallback after a bar (`{{client.first_name|there}}`). Names are checked when the
 * scenario is validated, so a typo is a validation error, never a blank in a sent message.
 */

/** The Client resource of the spec; custom_fields may be followed by any path. */
const CLIENT_FIELDS = [
	'id',
	'first_name',
	'last_name',
	'email',
	'phone',
	'tags',
	'custom_fields',
] as const;
/** The message.received fields a reply can quote. */
const MESSAGE_FIELDS = ['text', 'channel', 'message_id', 'timestamp'] as const;

type Root = 'client' | 'vars' | 'message' | 'order';
type TemplatePart = string | { root: Root; path: string[]; fallback: string };

export interface Template {
	source: string;
	parts: TemplatePart[];
}

export interface ClientProfile {
	id: string;
	first_name?: string | null;
	last_name?: string | null;
	email?: string | null;
	phone?: string | null;
	tags: string[];
	custom_fields?: Record<string, unknown> | null;
	/** From the full client record, when a scenario looks orders up: read fresh on every step. */
	orders?: OrderRecord[];
}

/** An order of the client (A25), with whatever else the service sent. */
export type OrderRecord = Record<string, unknown> & { order_id?: string; status?: string };

export interface MessageFields {
	text: string;
	channel?: string;
	message_id?: string;
	timestamp?: string;
}

export interface TemplateScope {
	client: ClientProfile;
	vars: Record<string, string>;
	message: MessageFields | undefined;
	/** The order a "findOrder" action found, if any. */
	order?: OrderRecord | null;
}

const EXPRESSION = /^\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)*)\s*(?:\|([^]*))?$/;

/** Parses a template; every problem with its names is returned, none thrown. */
export function parseTemplate(
	source: string,
	declaredVars: ReadonlySet<string>,
): { template: Template; errors: string[] } {
	const parts: TemplatePart[] = [];
	const errors: string[] = [];
	let rest = source;
	while (rest.length > 0) {
		const open = rest.indexOf('{{');
		if (open < 0) break;
		const close = rest.indexOf('}}', open + 2);
		if (close < 0) {
			errors.push(`has "{{" without a closing "}}"`);
			break;
		}
		if (open > 0) parts.push(rest.slice(0, open));
		const inner = rest.slice(open + 2, close);
		rest = rest.slice(close + 2);
		const found = EXPRESSION.exec(inner);
		if (!found) {
			errors.push(`{{${inner}}} is not a name like {{vars.email}} or {{client.first_name}}`);
			continue;
		}
		const [root, ...path] = found[1].split('.');
		const problem = nameProblem(root, path, declaredVars);
		if (problem) errors.push(`{{${inner}}}: ${problem}`);
		else parts.push({ root: root as Root, path, fallback: (found[2] ?? '').trim() });
	}
	if (rest.length > 0) parts.push(rest);
	return { template: { source, parts }, errors };
}

function nameProblem(root: string, path: string[], declaredVars: ReadonlySet<string>): string {
	if (root === 'vars') {
		if (path.length === 0) return 'names no variable (write {{vars.NAME}})';
		if (path.length > 1) return `variables hold text and have no fields`;
		if (declaredVars.has(path[0])) return '';
		const declared = [...declaredVars].join(', ') || 'none';
		return `no variable named "${path[0]}"${didYouMean(path[0], declaredVars)}; declare it in "variables" or capture it (declared: ${declared})`;
	}
	if (root === 'client') {
		if (path.length === 0) return 'names no client field (write {{client.first_name}})';
		const field = path[0];
		if (!(CLIENT_FIELDS as readonly string[]).includes(field)) {
			return `the client has no field "${field}"${didYouMean(field, CLIENT_FIELDS)} (fields: ${CLIENT_FIELDS.join(', ')})`;
		}
		if (path.length > 1 && field !== 'custom_fields') return `client.${field} has no fields`;
		return '';
	}
	if (root === 'message') {
		if (path.length !== 1 || !(MESSAGE_FIELDS as readonly string[]).includes(path[0])) {
			const field = path.join('.');
			return `the message has no field "${field}"${didYouMean(field, MESSAGE_FIELDS)} (fields: ${MESSAGE_FIELDS.join(', ')})`;
		}
		return '';
	}
	if (root === 'order') {
		if (path.length === 0) return 'names no order field (write {{order.status}})';
		return '';
	}
	return `unknown name "${root}"${didYouMean(root, ['client', 'vars', 'message', 'order'])} (use client.…, vars.…, message.… or order.…)`;
}

/** Renders with what is known; an unset value gives the fallback, or nothing. */
export function renderTemplate(template: Template, scope: TemplateScope): string {
	let out = '';
	for (const part of template.parts) {
		if (typeof part === 'string') {
			out += part;
			continue;
		}
		const value = lookup(part, scope);
		out += value === '' ? part.fallback : value;
	}
	return out;
}

function lookup(part: Exclude<TemplatePart, string>, scope: TemplateScope): string {
	if (part.root === 'vars') return scope.vars[part.path[0]] ?? '';
	if (part.root === 'message') {
		const value = scope.message?.[part.path[0] as keyof MessageFields];
		return value ?? '';
	}
	if (part.root === 'order') return showValue(walkPath(scope.order ?? undefined, part.path));
	const [field, ...rest] = part.path;
	if (field === 'tags') return scope.client.tags.join(', ');
	return showValue(walkPath(scope.client[field as keyof ClientProfile], rest));
}

export function walkPath(start: unknown, path: readonly string[]): unknown {
	let value = start;
	for (const key of path) {
		value =
			value !== null && typeof value === 'object'
				? (value as Record<string, unknown>)[key]
				: undefined;
	}
	return value;
}

export function showValue(value: unknown): string {
	if (value === null || value === undefined) return '';
	return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
