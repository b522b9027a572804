import { useLayoutEffect } from 'react';

/**
 * index.html paints the portal's frame before any JavaScript arrives (web/frame/, docs/web-performance.md): the
 * top bar with the product's name and a loading state, and on the invoices screen of a stored session its title
 * and description, where the app paints them. The frame is static markup beside the app's root: it shows nothing
 * of a user, and stays only while the app has nothing else to show (the guard checking the session, the first
 * screen's code on its way), then goes in the very commit that paints the app's own screen, shell or sign-in.
 */
export const STATIC_FRAME_ID = 'portal-frame';

/** How many loading states keep the frame on screen (the guard's check, a public screen's chunk). */
let holds = 0;

function frameElement(): HTMLElement | null {
  return typeof document === 'undefined' ? null : document.getElementById(STATIC_FRAME_ID);
}

/** Whether index.html's frame is still on screen. */
export function staticFrameShown(): boolean {
  return frameElement() !== null;
}

/** Removes the frame (once the app paints a screen of its own). */
export function dismissStaticFrame(): void {
  frameElement()?.remove();
}

/**
 * The app's first commit: the frame goes unless a loading state keeps it (its layout effect runs before this one,
 * children first).
 */
export function useStaticFrameRelease(): void {
  useLayoutEffect(() => {
    if (holds === 0) dismissStaticFrame();
  }, []);
}

/**
 * Keeps the frame on screen while it is mounted (a loading state rendered in its place); the frame goes in the
 * commit that unmounts the last one, unless that commit mounts another (checked once the commit is done, before
 * the browser paints: a microtask).
 */
export function HoldStaticFrame() {
  useLayoutEffect(() => {
    holds += 1;
    return () => {
      holds -= 1;
      queueMicrotask(() => {
        if (holds === 0) dismissStaticFrame();
      });
    };
  }, []);
  return null;
}
