/** What tests read of an SVG parsed by xml2js: elements by an attribute's value. */

export type XmlElement = { $?: Record<string, string>; [child: string]: unknown };

/** Every element anywhere below `node` that has the attribute, by its value. */
export function byAttribute(
	node: unknown,
	name: string,
	found = new Map<string, XmlElement>(),
): Map<string, XmlElement> {
	if (Array.isArray(node)) for (const child of node) byAttribute(child, name, found);
	else if (node !== null && typeof node === 'object') {
		const element = node as XmlElement;
		if (element.$?.[name] !== undefined) found.set(element.$[name], element);
		for (const [key, child] of Object.entries(element))
			if (key !== '$') byAttribute(child, name, found);
	}
	return found;
}
