import { lazy, useState, type ComponentType, type JSX } from 'react';

/** A page whose code loads on first use, and can be asked to load ahead of it. */
export type LazyPage<P extends object> = ((props: P) => JSX.Element) & {
  /** Starts loading the code (once) and resolves when it is here. */
  preload: () => Promise<unknown>;
  /** Resolves once the code is here, whoever asked for it; never starts loading it. */
  loaded: Promise<void>;
};

/**
 * Like React.lazy, with `preload()`: the app starts loading the code of the page it is about to show (the first URL,
 * or the page a session state leads to) before rendering it, and a dialog the code of its form once a pointer reaches
 * the button that opens it. A page whose code is already here renders at once instead of suspending, so a preloaded
 * first page never flashes its skeleton and never moves the footer below it (layout shift). Each mount keeps the
 * component it started with, so a page that loads while mounted is not mounted a second time.
 */
export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): LazyPage<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  let markLoaded = () => {};
  const whenLoaded = new Promise<void>((resolve) => (markLoaded = resolve));
  const preload = () => {
    loading ??= load().then(
      (component) => {
        loaded = component;
        markLoaded();
        return component;
      },
      (error: unknown) => {
        loading = undefined; // The page's own render asks again after a failed preload (the network blipped).
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(async () => ({ default: await preload() }));
  function Page(props: P) {
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return Object.assign(Page, { preload, loaded: whenLoaded });
}
