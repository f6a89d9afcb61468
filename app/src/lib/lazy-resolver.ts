// Form validation without zod in the page's first download: a form's resolver (its zod schema and
// @hookform/resolvers, ~27 kB gzip together) loads right after the page has painted, and the first
// validation (on submit) waits for it if it is somehow not there yet. zodResolver validates
// asynchronously anyway, so the form behaves as with the resolver imported statically.
import type { FieldValues, Resolver } from 'react-hook-form';

export function lazyResolver<T extends FieldValues>(load: () => Promise<Resolver<T>>): { resolver: Resolver<T>; preload: () => void } {
  let loading: Promise<Resolver<T>> | null = null;
  const get = () => {
    loading ??= load().catch((error: unknown) => {
      loading = null; // a failed chunk load is retried on the next validation
      throw error;
    });
    return loading;
  };
  return {
    resolver: async (values, context, options) => (await get())(values, context, options),
    preload: () => void get().catch(() => undefined),
  };
}
