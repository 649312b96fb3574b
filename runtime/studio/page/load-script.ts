/**
 * Loads one of the page's own later scripts (the JSON editor, Prettier) once, and resolves with
 * what it hands over on `window`. Nothing comes from elsewhere: the page's policy allows only its
 * own server.
 */
const loading = new Map<string, Promise<unknown>>();

export function loadScript<T>(src: string, name: string): Promise<T> {
	let promise = loading.get(src);
	if (!promise) {
		promise = new Promise<unknown>((resolve, reject) => {
			const script = document.createElement('script');
			script.src = src;
			script.onload = () => {
				const value = (window as unknown as Record<string, unknown>)[name];
				if (value) resolve(value);
				else reject(new Error(`${src} did not start`));
			};
			script.onerror = () => {
				loading.delete(src);
				reject(new Error(`${src} did not load: is the studio still running?`));
			};
			document.head.append(script);
		});
		loading.set(src, promise);
	}
	return promise as Promise<T>;
}
