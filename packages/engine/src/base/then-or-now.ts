/**
 * A step's answer now, or a promise of it when the work ran elsewhere (a
 * scriptlet in a worker thread).
 */
export type NowOrLater<T> = T | Promise<T>;

/**
 * `next` of `value`: at once when the value is here, after it resolves when
 * it is a promise. An in-process scriptlet placement goes through decide,
 * plan and their wrappers with no promise hop this way (issue #30).
 */
export function thenOrNow<T, R>(value: NowOrLater<T>, next: (value: T) => R): NowOrLater<R> {
  return value instanceof Promise ? (value.then(next) as Promise<R>) : next(value);
}
