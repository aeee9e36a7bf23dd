import { storageKeys } from './constants.js';

// The one inline script of the built pages (vite.config.ts puts it first in <head>): it applies
// the stored colour scheme (the product spec's entities and constants and limits: kept under 'theme', a class on <html>) before
// the page is first painted. Without it a dark-theme user saw every page light until the app's
// scripts ran and MantineProvider applied the scheme: on the prerendered pages and /app's
// placeholder, which paint long before the scripts, a light page that turned dark. The same
// attribute Mantine's colour scheme manager sets, and the class the root layout sets; 'auto' as
// Mantine reads it. For a dark page it also puts in a theme-color (the phone's address bar) ahead
// of the page's own white one: the first in the document wins. The Content-Security-Policy allows
// this script by its SHA-256 (no 'unsafe-inline': src/server/http/security.ts), so it must stay
// one constant string.
export const darkThemeColor = '#242424'; // Mantine's dark body colour (dark 7)
export const lightThemeColor = '#ffffff';

export const colorSchemeScript = `try{var s=localStorage.getItem(${JSON.stringify(storageKeys.theme)});if(s==="dark"||s==="light"||s==="auto"){var d=document.documentElement,c=s==="auto"?(matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light"):s;d.setAttribute("data-mantine-color-scheme",c);d.classList.remove("light","dark");d.classList.add(s==="dark"?"dark":"light");if(c==="dark"){var m=document.createElement("meta");m.name="theme-color";m.content=${JSON.stringify(darkThemeColor)};document.head.appendChild(m)}}}catch(e){}`;
