/**
 * The value kept for `key` in a process-wide map, made on first use. With `limit`, the map keeps
 * at most that many: the key made longest ago is forgotten first.
 */
export function getOrCreate<K, V>(map: Map<K, V>, key: K, make: () => V, limit = Infinity): V {
	let value = map.get(key);
	if (value === undefined) {
		value = make();
		map.set(key, value);
		if (map.size > limit) map.delete(map.keys().next().value as K);
	}
	return value;
}
