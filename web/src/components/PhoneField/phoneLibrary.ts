/**
 * libphonenumber-js (its metadata is most of the phone field's weight, about 39 KB gzipped) in a
 * chunk of its own: the login and signup forms show at once, and the field's country list and
 * checks arrive right after. A submit before it came is checked by the API alone.
 */
import { useEffect, useState } from "react";

export type PhoneLibrary = typeof import("./phoneCheck");

let library: PhoneLibrary | null = null;
let loading: Promise<PhoneLibrary> | null = null;

function loadPhoneLibrary(): Promise<PhoneLibrary> {
  loading ??= import("./phoneCheck").then((module) => (library = module));
  // A failed download is tried again by the next field that mounts.
  loading.catch(() => (loading = null));
  return loading;
}

/** The library if it has arrived (for synchronous checks such as a submit). */
export function phoneLibrary(): PhoneLibrary | null {
  return library;
}

/** The library, or null until its chunk has arrived. */
export function usePhoneLibrary(): PhoneLibrary | null {
  const [found, setFound] = useState(library);
  useEffect(() => {
    if (found) return;
    let live = true;
    loadPhoneLibrary().then(
      (module) => live && setFound(module),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [found]);
  return found;
}
