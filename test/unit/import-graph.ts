/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: reads the source tree, never loaded by n8n */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The import graph of a source tree, built with the TypeScript parser: every `import`, `export …
 * from`, `import()` and `import('…')` type counts, type-only ones included, since a cycle closed by
 * a type is still two modules that cannot be read apart.
 */
export interface ImportGraph {
	/** Each file (relative to the tree's parent) and the files of the tree it imports. */
	edges: Map<string, Set<string>>;
	/** Each file and the packages or Node modules it names (`node:fs`, `xstate`, `zod/v4`). */
	external: Map<string, Set<string>>;
}

export function importGraph(dir: string): ImportGraph {
	const base = path.dirname(dir);
	const edges = new Map<string, Set<string>>();
	const external = new Map<string, Set<string>>();
	for (const file of sourceFiles(dir)) {
		const name = path.relative(base, file);
		const internal = new Set<string>();
		const named = new Set<string>();
		for (const specifier of specifiers(file)) {
			if (!specifier.startsWith('.')) {
				named.add(specifier);
				continue;
			}
			const target = resolve(path.resolve(path.dirname(file), specifier));
			if (target && target.startsWith(dir + path.sep)) internal.add(path.relative(base, target));
		}
		edges.set(name, internal);
		external.set(name, named);
	}
	return { edges, external };
}

/** Every cycle's files in import order, the first repeated at the end; one per tangle. */
export function findCycles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
	const cycles: string[][] = [];
	for (const component of tangles(edges)) {
		const start = [...component].sort()[0];
		cycles.push(pathBack(edges, component, start));
	}
	return cycles;
}

/** The files `from` reaches through its imports, itself included. */
export function reachable(edges: ReadonlyMap<string, ReadonlySet<string>>, from: string): string[] {
	const seen = new Set([from]);
	const stack = [from];
	while (stack.length > 0) {
		for (const next of edges.get(stack.pop() as string) ?? []) {
			if (!seen.has(next)) {
				seen.add(next);
				stack.push(next);
			}
		}
	}
	return [...seen];
}

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((entry) => {
		const full = path.join(dir, entry);
		if (statSync(full).isDirectory()) return sourceFiles(full);
		return full.endsWith('.ts') && !full.endsWith('.test.ts') ? [full] : [];
	});
}

function resolve(target: string): string | undefined {
	for (const candidate of [`${target}.ts`, path.join(target, 'index.ts'), target]) {
		try {
			if (statSync(candidate).isFile()) return candidate;
		} catch {
			// not this one
		}
	}
	return undefined;
}

function specifiers(file: string): string[] {
	const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
	const found: string[] = [];
	const visit = (node: ts.Node): void => {
		if (
			(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
			node.moduleSpecifier &&
			ts.isStringLiteral(node.moduleSpecifier)
		)
			found.push(node.moduleSpecifier.text);
		else if (
			ts.isCallExpression(node) &&
			node.expression.kind === ts.SyntaxKind.ImportKeyword &&
			node.arguments[0] &&
			ts.isStringLiteral(node.arguments[0])
		)
			found.push(node.arguments[0].text);
		else if (
			ts.isImportTypeNode(node) &&
			ts.isLiteralTypeNode(node.argument) &&
			ts.isStringLiteral(node.argument.literal)
		)
			found.push(node.argument.literal.text);
		else if (
			ts.isImportEqualsDeclaration(node) &&
			ts.isExternalModuleReference(node.moduleReference)
		)
			found.push((node.moduleReference.expression as ts.StringLiteral).text);
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

/** Strongly connected components of more than one file, or of one that imports itself. */
function tangles(edges: ReadonlyMap<string, ReadonlySet<string>>): Set<string>[] {
	let counter = 0;
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const found: Set<string>[] = [];
	const connect = (node: string): void => {
		index.set(node, counter);
		low.set(node, counter++);
		stack.push(node);
		onStack.add(node);
		for (const next of edges.get(node) ?? []) {
			if (!index.has(next)) {
				connect(next);
				low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
			} else if (onStack.has(next))
				low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
		}
		if (low.get(node) !== index.get(node)) return;
		const component = new Set<string>();
		let member: string;
		do {
			member = stack.pop() as string;
			onStack.delete(member);
			component.add(member);
		} while (member !== node);
		if (component.size > 1 || edges.get(node)?.has(node)) found.push(component);
	};
	for (const node of edges.keys()) if (!index.has(node)) connect(node);
	return found;
}

/** The shortest way from `start` back to itself inside its tangle. */
function pathBack(
	edges: ReadonlyMap<string, ReadonlySet<string>>,
	component: ReadonlySet<string>,
	start: string,
): string[] {
	const previous = new Map<string, string>();
	const queue = [start];
	while (queue.length > 0) {
		const node = queue.shift() as string;
		for (const next of edges.get(node) ?? []) {
			if (!component.has(next)) continue;
			if (next === start) {
				const route: string[] = [];
				for (let at = node; at !== start; at = previous.get(at) as string) route.unshift(at);
				return [start, ...route, start];
			}
			if (!previous.has(next)) {
				previous.set(next, node);
				queue.push(next);
			}
		}
	}
	return [start];
}
