/**
 * @module core/clock
 * The time the domains read: epoch milliseconds from a function the composition root passes
 * in (`Date.now` in production), so tests move time forward instead of waiting for it.
 */
export type Clock = () => number;
